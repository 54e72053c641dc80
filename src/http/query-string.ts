import type { FastifyInstance } from 'fastify';
import { invalidQuery } from '../errors/app-error.js';
import { boundedList, namesWithMore } from '../errors/item-problems.js';
import { clipped, isStorableText } from '../lib/text.js';

const MALFORMED = Symbol('query parameters that are not valid percent-encoded UTF-8');
const UNSTORABLE = Symbol('query parameters holding text the databases cannot store');

type ParsedQuery = Record<string, string | string[]> & { [MALFORMED]?: string[]; [UNSTORABLE]?: Set<string> };

/**
 * Parses a query string as Fastify's default parser does (`+` is a space, a repeated name
 * gives an array, a name without `=` has the value `''`), except that a name or value that is
 * not valid percent-encoded UTF-8 (`%ZZ`, a truncated `%E0%A4`) is not taken as the literal
 * text: it is left out and remembered, and `registerQueryEncodingCheck` answers 400 naming it.
 * A name or value holding a NUL character or an unpaired surrogate (which PostgreSQL cannot
 * store, plugins/text-input.ts) is remembered too, for the same hook to refuse.
 */
export function parseQueryString(input: string): ParsedQuery {
  const query: ParsedQuery = Object.create(null) as ParsedQuery;
  const malformed: string[] = [];
  let unstorable: Set<string> | undefined;
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
    if (!isStorableText(name) || !isStorableText(value)) (unstorable ??= new Set()).add(name);
    const current = query[name];
    if (current === undefined) query[name] = value;
    else if (Array.isArray(current)) current.push(value);
    else query[name] = [current, value];
  }
  if (malformed.length > 0) query[MALFORMED] = malformed;
  if (unstorable) query[UNSTORABLE] = unstorable;
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

/**
 * Answers 400 `invalid_query`, before any validation, for the parameters parseQueryString could
 * not decode (on a route that exists), then for those holding text the databases cannot store.
 */
export function registerQueryEncodingCheck(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const query = request.query as ParsedQuery | undefined;
    const malformed = query?.[MALFORMED];
    if (malformed !== undefined && !request.is404) {
      const names = [...new Set(malformed)];
      throw invalidQuery(
        `query parameter(s) not valid percent-encoded UTF-8 (write a literal % as %25): ${namesWithMore(names.map((name) => `'${name}'`))}`,
        boundedList(names).listed,
      );
    }
    const unstorable = query?.[UNSTORABLE];
    if (unstorable === undefined) return done();
    const names = Object.keys(query!).filter((name) => unstorable.has(name));
    throw invalidQuery(
      `query parameters may not hold NUL characters or unpaired surrogates: ${namesWithMore(names.map((name) => `'${clipped(name)}'`))}`,
      boundedList(names).listed,
    );
  });
}
