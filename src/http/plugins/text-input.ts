import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unstorableTextError } from '../../contracts/storable-text.js';
import { invalidQuery, notFound } from '../../errors/app-error.js';
import { boundedList, namesWithMore } from '../../errors/item-problems.js';
import { clipped, isStorableText } from '../../lib/text.js';

/**
 * PostgreSQL text cannot hold NUL (the statement fails), and a lone surrogate is not Unicode
 * text (a driver silently stores U+FFFD instead). Both are refused before any handler, so both
 * databases answer alike: a path segment holding one names nothing (404); a query parameter
 * or a JSON body holding one is a 400 naming where (at most MAX_LISTED_PROBLEMS places, and
 * how many more). Streamed bodies (the event ingest, the records import) are checked by their readers, item by item.
 */
export function registerTextInputRules(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
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
    done();
  });
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
