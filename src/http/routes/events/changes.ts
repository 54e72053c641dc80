import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../app-context.js';
import { EVENTS_LIMIT } from '../../../domain/events/event-fields.js';
import { JSON_CONTENT_TYPE } from '../../json-content-type.js';
import { identityOf } from '../../plugins/authenticate.js';
import { errorResponses } from '../../schemas/errors.js';
import { exampleEvent, withExample } from '../../schemas/examples.js';
import { LARGE_PAGE_EVENTS, type LargePages } from './large-pages.js';
import { ChangesQuery, EventsChangesResponse } from './schemas.js';
import { chunkedEventsListBody, eventsListBody, joinedChunksOf } from './serialize-events.js';

const EXAMPLE_CURSOR = '48LPEsD_fp2YKPctUE8Q68ljrwE5SoJH';

/** GET /v1/events/changes: the change feed, shares the large-page places of GET /v1/events. */
export function registerChangesRoute(app: FastifyInstance, ctx: AppContext, largePages: LargePages): void {
  (app as unknown as Parameters<FastifyPluginAsyncTypebox>[0]).get(
    '/events/changes',
    {
      schema: {
        operationId: 'listEventChanges',
        summary: 'Follow the change feed of events',
        description:
          'Events in the order they were stored (the events of one ingest in its order). Follow next_cursor from the ' +
          'beginning and you see every stored event once, in order, even while ingests commit out of order; an event ' +
          'replaced by a later ingest moves to its new position. No after: from the beginning. A malformed cursor or one of ' +
          'another company is a 400. A cursor from before events the retention period removed is a 410 ' +
          '(feed_cursor_expired): start again from the beginning or from now.',
        tags: ['events'],
        querystring: ChangesQuery,
        response: {
          200: withExample(EventsChangesResponse, { count: 1, results: [exampleEvent], next_cursor: EXAMPLE_CURSOR }, 'the next events of the feed'),
          ...errorResponses(400, 401, 403, 410, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const companyId = identityOf(request).companyId;
      const query = request.query;
      const limit = query.limit ?? EVENTS_LIMIT.default;
      const after = await ctx.events.feedPosition(companyId, query.after, { query: 'after' });
      const page = async () => {
        const changes = await ctx.events.changes(companyId, { after, limit, type: query.type ?? null });
        if (query.after !== undefined) await ctx.events.ensureFeedKept(companyId, after);
        return eventsListBody(changes.events, `,"next_cursor":${JSON.stringify(changes.nextCursor)}`);
      };
      const chunked = async () => {
        const changes = await ctx.events.openChanges(companyId, { after, limit, type: query.type ?? null });
        try {
          if (query.after !== undefined) await ctx.events.ensureFeedKept(companyId, after);
        } catch (error) {
          await changes.close();
          throw error;
        }
        return chunkedEventsListBody(joinedChunksOf(changes), () => `,"next_cursor":${JSON.stringify(changes.nextCursor())}`);
      };
      const body = limit > LARGE_PAGE_EVENTS ? await largePages.build(companyId, request, reply, chunked) : await page();
      if (body === undefined) return reply;
      return reply.type(JSON_CONTENT_TYPE).send(body as never);
    },
  );
}
