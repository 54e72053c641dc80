import type { FastifyInstance } from 'fastify';
import { invalidQuery } from '../errors/app-error.js';
import { boundedList, namesWithMore } from '../errors/item-problems.js';

const MALFORMED = Symbol('query parameters that are not valid percent-encoded UTF-8');

type ParsedQuery = Record<string, string | string[]> & { [MALFORMED]?: string[] };

/**
 * Parses a query string as Fastify's default parser does (`+` is a space, a repeated name
 * gives an array, a name without `=` has the value `''`), except that a name or value that is
 * not valid percent-encoded UTF-8 (`%ZZ`, a truncated `%E0%A4`) is not taken as the literal
 * text: it is left out and remembered, and `registerQueryEncodingCheck` answers 400 naming it.
 */
export function parseQueryString(input: string): ParsedQuery {
  const query: ParsedQuery = Object.create(null) as ParsedQuery;
  const malformed: string[] = [];
  for (const pair of input.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    const name = decode(rawName);
    const value = equals === -1 ? '' : decode(pair.slice(equals + 1));
    if (name === undefined || value === undefined) {
      malformed.push(name ?? rawName);
      continue;
    }
    const current = query[name];
    if (current === undefined) query[name] = value;
    else if (Array.isArray(current)) current.push(value);
    else query[name] = [current, value];
  }
  if (malformed.length > 0) query[MALFORMED] = malformed;
  return query;
}

function decode(text: string): string | undefined {
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
}

/** Answers 400 `invalid_query`, before any validation, for the parameters parseQueryString could not decode. */
export function registerQueryEncodingCheck(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const malformed = (request.query as ParsedQuery | undefined)?.[MALFORMED];
    if (malformed === undefined || request.is404) return done();
    const names = [...new Set(malformed)];
    throw invalidQuery(
      `query parameter(s) not valid percent-encoded UTF-8 (write a literal % as %25): ${namesWithMore(names.map((name) => `'${name}'`))}`,
      boundedList(names).listed,
    );
  });
}
