import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app-context.js';
import { invalidQuery } from '../../../errors/app-error.js';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { createSemaphore, type Semaphore } from '../../../lib/semaphore.js';
import { identityOf } from '../../plugins/authenticate.js';
import { errorResponses } from '../../schemas/errors.js';
import { EventsListResponse, INTEGER_QUERY_PARAMETERS, ListEventsQuery } from './schemas.js';
import { eventsListBody } from './serialize-events.js';

const DECIMAL_INTEGER = /^-?\d+$/;

/**
 * A 10,000-event page holds about 10 MB of rows and 6 MB of JSON while it is built and sent;
 * building and sending few of them at once bounds the memory that many clients asking for
 * large pages can take.
 */
const LARGE_PAGE_EVENTS = 1000;
const LARGE_PAGES_AT_ONCE = 2;

/**
 * Ajv coerces '0x10', '1e3' or ' 5' to numbers; an integer parameter must be written as a
 * decimal integer, so the raw strings are checked before the schema coerces them.
 */
async function requireDecimalIntegers(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown>;
  const bad = Object.keys(query).filter(
    (name) => INTEGER_QUERY_PARAMETERS.has(name) && typeof query[name] === 'string' && !DECIMAL_INTEGER.test(query[name] as string),
  );
  if (bad.length > 0) {
    throw invalidQuery(bad.map((name) => `query parameter '${name}' must be an integer`).join('; '), bad);
  }
}

/**
 * Builds a body under the semaphore and keeps its place until a streamed body has been sent (or
 * the client went away), so the JSON of waiting large pages does not pile up in memory.
 */
function whileSending(semaphore: Semaphore, build: () => Promise<string | Readable>): Promise<string | Readable> {
  return new Promise((resolve, reject) => {
    void semaphore.run(async () => {
      let body: string | Readable;
      try {
        body = await build();
      } catch (error) {
        reject(error);
        return;
      }
      resolve(body);
      if (typeof body !== 'string') await finished(body).catch(() => undefined);
    });
  });
}

/** GET /v1/events: the company's events, filtered, ordered and paged. */
export const listEventsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const largePages = createSemaphore(LARGE_PAGES_AT_ONCE);
  app.get(
    '/events',
    {
      preValidation: requireDecimalIntegers,
      schema: {
        summary: 'List events',
        description:
          'Events of the company in the bearer token. Filters are ANDed: the bare name matches exactly, __contains is a ' +
          'case-sensitive substring, __gt/__gte/__lt/__lte compare strings by code point and flow_session numerically. ' +
          'Default order: created_at ascending, ties by id. Unknown or repeated parameters are a 400.',
        tags: ['events'],
        querystring: ListEventsQuery,
        response: { 200: EventsListResponse, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const companyId = identityOf(request).companyId;
      const page = async () => eventsListBody(await ctx.events.list(companyId, request.query));
      const body = (request.query.limit ?? 0) > LARGE_PAGE_EVENTS ? await whileSending(largePages, page) : await page();
      // Serialised as the EventsListResponse schema says (serialize-events.ts), not by Fastify.
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );
};
