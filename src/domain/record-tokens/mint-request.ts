import { invalidBody } from '../../errors/app-error.js';
import { namesWithMore } from '../../errors/item-problems.js';
import { clipped } from '../../lib/text.js';
import { isPlainObject } from '../record-types/definition.js';

export const DEFAULT_EXPIRES_IN = 86_400;
export const MAX_EXPIRES_IN = 2_592_000;

/**
 * Reads a mint body: `expires_in` (or its alias `expires`), a whole number of seconds in
 * 1..2592000 (default one day), and optionally `record_id` / `recordId`, which must name the
 * record of the path. Every problem is reported at once.
 */
export function parseMintRequest(body: unknown, recordId: string): { expiresIn: number } {
  if (body === undefined) return { expiresIn: DEFAULT_EXPIRES_IN };
  if (!isPlainObject(body)) throw invalidBody('the body must be a JSON object');
  const problems: string[] = [];
  for (const key of Object.keys(body)) {
    if (!['expires_in', 'expires', 'record_id', 'recordId'].includes(key)) problems.push(`unknown field '${clipped(key)}'`);
  }
  const lifetimes = (['expires_in', 'expires'] as const).filter((name) => body[name] !== undefined);
  for (const name of lifetimes) {
    const value = body[name];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_EXPIRES_IN) {
      problems.push(`'${name}' must be a whole number of seconds from 1 to ${MAX_EXPIRES_IN}`);
    }
  }
  if (lifetimes.length === 2 && body.expires_in !== body.expires) {
    problems.push("'expires_in' and its alias 'expires' were both sent, with different values");
  }
  for (const name of ['record_id', 'recordId'] as const) {
    const value = body[name];
    if (value !== undefined && value !== recordId) problems.push(`'${name}' must equal the record of the path ('${recordId}')`);
  }
  if (problems.length > 0) throw invalidBody(`invalid token request: ${namesWithMore(problems, '; ')}`);
  const lifetime = body.expires_in ?? body.expires;
  return { expiresIn: lifetime === undefined ? DEFAULT_EXPIRES_IN : (lifetime as number) };
}
