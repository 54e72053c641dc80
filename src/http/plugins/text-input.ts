import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidBody, invalidQuery, notFound, type AppError } from '../../errors/app-error.js';
import { boundedList, namesWithMore } from '../../errors/item-problems.js';
import { clipped, isStorableText } from '../../lib/text.js';
import { NdjsonBody } from '../routes/records/ndjson.js';

/**
 * PostgreSQL text cannot hold NUL (the statement fails), and a lone surrogate is not Unicode
 * text (a driver silently stores U+FFFD instead). Both are refused before any handler, so both
 * databases answer alike: a path segment holding one names nothing (404); a query parameter
 * or a JSON body holding one is a 400 naming where (at most MAX_LISTED_PROBLEMS places, and
 * how many more). Streamed bodies (event ingest) are checked by their readers.
 */
export function registerTextInputRules(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const params = (request.params ?? {}) as Record<string, unknown>;
    if (Object.values(params).some((value) => typeof value === 'string' && !isStorableText(value))) {
      throw notFound(`no route ${request.method} ${request.url.split('?')[0]}: a path segment holds a NUL character or an unpaired surrogate`);
    }
    const badParams = queryProblems(request);
    if (badParams.length > 0) {
      throw invalidQuery(
        `query parameters may not hold NUL characters or unpaired surrogates: ${namesWithMore(badParams.map((name) => `'${clipped(name)}'`))}`,
        boundedList(badParams).listed,
      );
    }
    const bodyError = unstorableTextError(request.body);
    if (bodyError) throw bodyError;
  });
}

/** The 400 for a parsed body (or NdjsonBody) holding text the databases cannot store as it is; also used by the CLI. */
export function unstorableTextError(body: unknown): AppError | undefined {
  const places = bodyProblems(body);
  return places.length > 0 ? invalidBody(`text may not hold NUL characters or unpaired surrogates; found at ${namesWithMore(places)}`) : undefined;
}

function queryProblems(request: FastifyRequest): string[] {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const names: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value];
    if (!isStorableText(name) || values.some((item) => typeof item === 'string' && !isStorableText(item))) names.push(name);
  }
  return names;
}

/** Walks a parsed body without recursion (bodies may nest deeply); names every place at fault. */
function bodyProblems(body: unknown): string[] {
  const stack: Array<[unknown, string]> =
    body instanceof NdjsonBody
      ? body.lines.flatMap((line): Array<[unknown, string]> => ('value' in line ? [[line.value, `line ${line.line}:`]] : [])).reverse()
      : [[body, '']];
  const places: string[] = [];
  const name = (place: string) => (place === '' ? 'the body' : place.replace(/^(line \d+):\.?/, '$1 '));
  while (stack.length > 0) {
    const [value, place] = stack.pop()!;
    if (typeof value === 'string') {
      if (!isStorableText(value)) places.push(clipped(name(place)));
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${place}[${i}]`]);
    } else if (value !== null && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        const at = place === '' ? key : `${place}.${key}`;
        if (!isStorableText(key)) places.push(`a key in ${clipped(name(place))}`);
        stack.push([item, at]);
      }
    }
  }
  return places;
}
