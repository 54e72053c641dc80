import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../app-context.js';
import { parseEventQuery, type EventListQuery, type RawEventQuery } from '../../../domain/events/event-query.js';
import { answeredNotModified, weakEtagOf } from '../../conditional-requests.js';
import { JSON_CONTENT_TYPE } from '../../json-content-type.js';
import { identityOf } from '../../plugins/authenticate.js';
import { IfNoneMatchHeaders, notModifiedResponse, withEtag } from '../../schemas/conditional.js';
import { errorResponses } from '../../schemas/errors.js';
import { EventsListResponse, ListEventsQuery } from './schemas.js';
import { createLargePages, LARGE_PAGE_EVENTS } from './large-pages.js';
import { chunkedEventsListBody, eventsListBody, joinedChunksOf } from './serialize-events.js';
import { exampleEvent, withExample } from '../../schemas/examples.js';
import { registerChangesRoute } from './changes.js';
import { checkedByTheRoute } from '../../validator-compiler.js';

/**
 * GET /v1/events: the company's events, filtered, ordered and paged. The plain path reads the
 * company's data version (the ETag), then the page; the fast path (src/fast-path/) may answer
 * first, with the same bytes.
 */
export const listEventsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const largePages = createLargePages(ctx.config.largePages);
  app.get(
    '/events',
    {
      // The querystring schema documents the route; parseEventQuery checks the query as it came.
      validatorCompiler: checkedByTheRoute,
      schema: {
        operationId: 'listEvents',
        summary: 'List events',
        description:
          'Events of the company in the bearer token. Filters are ANDed: the bare name matches exactly, __contains is a ' +
          'case-sensitive substring, __gt/__gte/__lt/__lte compare strings by code point and flow_session numerically. ' +
          'Default order: created_at ascending, ties by id. Unknown or repeated parameters are a 400. A page over 1,000 ' +
          'events waits for one of a few places shared fairly between companies; none free in time is a 503 with Retry-After. ' +
          'The ETag changes whenever a write of the company could change the answer; If-None-Match with it answers 304.',
        tags: ['events'],
        querystring: ListEventsQuery,
        headers: IfNoneMatchHeaders,
        response: {
          200: withEtag(withExample(EventsListResponse, { count: 1, results: [exampleEvent] }, 'the matching events of this page')),
          ...notModifiedResponse,
          ...errorResponses(400, 401, 403, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const identity = identityOf(request);
      const companyId = identity.companyId;
      const query = parseEventQuery(request.query as RawEventQuery);
      const etagAt = (version: number) => weakEtagOf(['events', companyId, identity.kind, version, query]);
      if (query.limit <= LARGE_PAGE_EVENTS) {
        const notModified = (etag: string) => answeredNotModified(request, reply, etag);
        const fast = await ctx.fastPath.eventsPage({ companyId, headers: request.headers, etagAt, notModified }, query);
        if (fast?.body === null) return reply;
        if (fast)
          return reply
            .header('etag', fast.etag)
            .type(JSON_CONTENT_TYPE)
            .send(fast.body as never);
      }
      // The plain path: the version first (a write committed meanwhile can only make the tag older than the page), then the page.
      const etag = etagAt(await ctx.events.version(companyId));
      if (answeredNotModified(request, reply, etag)) return reply;
      const body =
        query.limit > LARGE_PAGE_EVENTS
          ? await largePages.build(companyId, request, reply, () => largePageBody(ctx, companyId, query))
          : eventsListBody(await ctx.events.list(companyId, query));
      // The client went away while waiting for a place: there is no one to answer.
      if (body === undefined) return reply;
      // Serialised as the EventsListResponse schema says (serialize-events.ts), not by Fastify.
      return reply.type(JSON_CONTENT_TYPE).send(body as never);
    },
  );

  registerChangesRoute(app, ctx, largePages);
};

/** A page over 1,000 events, read in chunks while it is sent: by the fast path's reader, or by the events service's openList. */
async function largePageBody(ctx: AppContext, companyId: string, query: EventListQuery) {
  const fast = ctx.fastPath.eventChunks(companyId, query);
  return chunkedEventsListBody(fast ? await fast : joinedChunksOf(await ctx.events.openList(companyId, query)));
}
