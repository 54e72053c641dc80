import { invalidBody } from '../../errors/app-error.js';
import { namesWithMore } from '../../errors/item-problems.js';
import { clipped } from '../../lib/text.js';
import { isPlainObject, type RecordType } from '../record-types/definition.js';
import type { RecordTokenNarrowing } from './record-token.js';

export const DEFAULT_EXPIRES_IN = 86_400;
export const MAX_EXPIRES_IN = 2_592_000;
export const MAX_LABEL_LENGTH = 200;
export const MAX_NARROWED_FIELDS = 500;

export interface MintRequest extends RecordTokenNarrowing {
  expiresIn: number;
  label: string | null;
}

const NOT_NARROWED = { visible_fields: null, status_editable: null, label: null } as const;

/**
 * Reads a mint body: `expires_in` (or its alias `expires`), a whole number of seconds in
 * 1..2592000 (default one day); optionally `record_id` / `recordId`, which must name the
 * record of the path; and the narrowing: `fields` (field UIDs, checked against the record's
 * type by the caller), `status_editable` and `label`. Every problem is reported at once.
 */
export function parseMintRequest(body: unknown, recordId: string): MintRequest {
  if (body === undefined) return { expiresIn: DEFAULT_EXPIRES_IN, ...NOT_NARROWED };
  if (!isPlainObject(body)) throw invalidBody('the body must be a JSON object');
  const problems: string[] = [];
  for (const key of Object.keys(body)) {
    if (!['expires_in', 'expires', 'record_id', 'recordId', 'fields', 'status_editable', 'label'].includes(key)) {
      problems.push(`unknown field '${clipped(key)}'`);
    }
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
  const visibleFields = parseFields(body.fields, problems);
  if (body.status_editable !== undefined && typeof body.status_editable !== 'boolean') problems.push("'status_editable' must be true or false");
  const label = body.label;
  if (label !== undefined && (typeof label !== 'string' || label.length > MAX_LABEL_LENGTH)) {
    problems.push(`'label' must be a text of at most ${MAX_LABEL_LENGTH} characters`);
  }
  if (problems.length > 0) throw invalidBody(`invalid token request: ${namesWithMore(problems, '; ')}`);
  const lifetime = body.expires_in ?? body.expires;
  return {
    expiresIn: lifetime === undefined ? DEFAULT_EXPIRES_IN : (lifetime as number),
    visible_fields: visibleFields,
    status_editable: typeof body.status_editable === 'boolean' ? body.status_editable : null,
    label: typeof label === 'string' && label.trim() !== '' ? label : null,
  };
}

function parseFields(value: unknown, problems: string[]): string[] | null {
  if (value === undefined) return null;
  if (!Array.isArray(value) || value.length > MAX_NARROWED_FIELDS || !value.every((uid) => typeof uid === 'string' && uid.length > 0)) {
    problems.push(`'fields' must be an array of at most ${MAX_NARROWED_FIELDS} field UIDs`);
    return null;
  }
  return [...new Set(value as string[])];
}

/** Refuses (400) the UIDs of a mint's `fields` that are no field of the record's type. */
export function assertFieldsOfType(visibleFields: readonly string[] | null, type: RecordType | undefined, recordId: string): void {
  if (visibleFields === null) return;
  const known = new Set((type?.fields ?? []).map((field) => field.uid));
  const unknown = visibleFields.filter((uid) => !known.has(uid)).map((uid) => `'${clipped(uid)}'`);
  if (unknown.length === 0) return;
  const of = type ? `of type '${type.id}'` : `of record '${recordId}' (it follows no record type)`;
  throw invalidBody(`invalid token request: 'fields': ${namesWithMore(unknown)} ${unknown.length === 1 ? 'is not a field' : 'are not fields'} ${of}`);
}
