import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app-context.js';
import { invalidQuery } from '../../../errors/app-error.js';
import { identityOf } from '../../plugins/authenticate.js';
import { errorResponses } from '../../schemas/errors.js';
import { EventsListResponse, INTEGER_QUERY_PARAMETERS, ListEventsQuery } from './schemas.js';
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
      const events = await ctx.events.list(identityOf(request).companyId, request.query);
      // Serialised here, event by event, as the EventsListResponse schema says (see serialize-events.ts).
      return reply.type('application/json; charset=utf-8').send(eventsListBody(events) as never);
    },
  );
};
