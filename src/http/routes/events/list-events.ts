import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app-context.js';
import { invalidQuery } from '../../../errors/app-error.js';
import { identityOf } from '../../plugins/authenticate.js';
import { errorResponses } from '../../schemas/errors.js';
import { EventsListResponse, INTEGER_QUERY_PARAMETERS, ListEventsQuery } from './schemas.js';
import { createLargePages, LARGE_PAGE_EVENTS } from './large-pages.js';
import { eventsListBody } from './serialize-events.js';

const DECIMAL_INTEGER = /^-?\d+$/;

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

/** GET /v1/events: the company's events, filtered, ordered and paged. */
export const listEventsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const largePages = createLargePages(ctx.config.largePages);
  app.get(
    '/events',
    {
      preValidation: requireDecimalIntegers,
      schema: {
        summary: 'List events',
        description:
          'Events of the company in the bearer token. Filters are ANDed: the bare name matches exactly, __contains is a ' +
          'case-sensitive substring, __gt/__gte/__lt/__lte compare strings by code point and flow_session numerically. ' +
          'Default order: created_at ascending, ties by id. Unknown or repeated parameters are a 400. A page over 1,000 ' +
          'events waits for one of a few places shared fairly between companies; none free in time is a 503 with Retry-After.',
        tags: ['events'],
        querystring: ListEventsQuery,
        response: { 200: EventsListResponse, ...errorResponses(400, 401, 403, 429, 503) },
      },
    },
    async (request, reply) => {
      const companyId = identityOf(request).companyId;
      const page = async () => eventsListBody(await ctx.events.list(companyId, request.query));
      const body =
        (request.query.limit ?? 0) > LARGE_PAGE_EVENTS ? await largePages.build(companyId, request, reply, page) : await page();
      // The client went away while waiting for a place: there is no one to answer.
      if (body === undefined) return reply;
      // Serialised as the EventsListResponse schema says (serialize-events.ts), not by Fastify.
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );
};
