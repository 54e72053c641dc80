import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../app-context.js';
import { identityOf } from '../../plugins/authenticate.js';
import { errorResponses } from '../../schemas/errors.js';
import { withExample } from '../../schemas/examples.js';
import { EVENT_TYPES_EXAMPLE, EventTypesListResponse, ListEventTypesQuery } from './event-types-schemas.js';

/** Discovery: the event types a company has, so a client can offer them as `type` filters. */
export const eventTypeRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/event-types',
    {
      schema: {
        operationId: 'listEventTypes',
        summary: "List the company's event types",
        description:
          "Every event type stored for the caller's company, ordered by type, each with how many events of it are stored " +
          '(counted when asked; retention and erasure lower it). A company without events answers an empty list. ' +
          'Query parameters are refused with 400, record tokens with 403.',
        tags: ['events'],
        querystring: ListEventTypesQuery,
        response: {
          200: withExample(EventTypesListResponse, EVENT_TYPES_EXAMPLE, "the company's event types"),
          ...errorResponses(401, 403),
        },
      },
    },
    async (request) => {
      const results = await ctx.events.typeCounts(identityOf(request).companyId);
      return { count: results.length, results };
    },
  );
};
