import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../app-context.js';
import type { Following } from '../../../domain/events/feed-followers.js';
import { tooManyRequests } from '../../../errors/app-error.js';
import { createKeyedShares } from '../../../lib/keyed-shares.js';
import { identityOf } from '../../plugins/authenticate.js';
import { whenResponseCloses } from '../../response-closed.js';
import { ErrorResponse, errorResponses } from '../../schemas/errors.js';
import { StreamHeaders, StreamQuery } from './schemas.js';
import { SSE_PING, sseError, sseMessages } from './sse-messages.js';

const EXAMPLE_STREAM =
  'id: 48LPEsD_fp2YKPctUE8Q68ljrwE5SoJH\nevent: event\ndata: {"id":"019aa5c1-0d2e-7a10-8b3c-4d5e6f708192","type":"user_flow_session_started", ...}\n\n: ping\n\n';

/** A company refused a stream is told to try again after this long: a place frees when one of its streams ends. */
const STREAM_RETRY_AFTER_S = 5;

/** One open stream: what the heartbeat and shutdown reach. */
interface OpenStream {
  /** Writes unless the client is too far behind, in which case it is dropped. */
  send(text: string): 'ready' | 'full' | 'closed';
  end(): void;
}

/**
 * GET /v1/events/stream: the change feed as Server-Sent Events, live. The body is a stream
 * that this route writes into: Fastify's hooks still apply (security headers, request id), and
 * compression is off for the route so that no encoder holds messages back.
 */
export const eventStreamRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { heartbeatMs, maxBufferBytes, perCompany } = ctx.config.stream;
  const open = new Set<OpenStream>();
  // Per process: each replica or worker keeps its own count.
  const companyShares = createKeyedShares(perCompany);
  const perCompanyRule = perCompany > 0 ? `${perCompany} streams open at once per company and process (WRS_STREAMS_PER_COMPANY)` : '';
  const heartbeat = setInterval(() => {
    for (const stream of open) stream.send(SSE_PING);
  }, heartbeatMs);
  heartbeat.unref();
  // Streams never end by themselves: closing the server ends them, and clients resume elsewhere.
  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    for (const stream of open) stream.end();
  });

  app.get(
    '/events/stream',
    {
      compress: false,
      schema: {
        operationId: 'streamEvents',
        summary: 'Stream events live (Server-Sent Events)',
        description:
          'The change feed as text/event-stream: each message has id (a cursor), event: event and data (the Event as JSON). ' +
          'It starts after the Last-Event-ID header, else after the after parameter, else at the live end, and sends a ' +
          `: ping comment every ${heartbeatMs / 1000} s. A client that reconnects with its last id misses nothing. A client ` +
          'that reads too slowly is disconnected and resumes the same way. A malformed cursor is a 400 before the stream starts; ' +
          'one from before events that retention removed is a 410 feed_cursor_expired, and a stream open when retention removes ' +
          'events it has not yet sent ends with an event: error message holding that same error (code and message), never skipping them.' +
          (perCompany > 0
            ? ` A company holds at most ${perCompanyRule}: one more is a 429 rate_limited with Retry-After, and a place frees as soon as one of its streams ends.`
            : ''),
        tags: ['events'],
        querystring: StreamQuery,
        headers: StreamHeaders,
        produces: ['text/event-stream'],
        response: {
          200: {
            description: 'the stream of events',
            content: { 'text/event-stream': { schema: Type.String(), example: EXAMPLE_STREAM } },
          },
          ...errorResponses(400, 401, 403, 410, 503),
          429: {
            ...ErrorResponse,
            description: `rate_limited with Retry-After: the company is over its request rate${perCompany > 0 ? `, or already holds ${perCompanyRule}` : ''}`,
          },
        },
      },
    },
    async (request, reply) => {
      const companyId = identityOf(request).companyId;
      const type = request.query.type ?? null;
      const fromQuery = await ctx.events.feedPosition(companyId, request.query.after, { query: 'after' });
      const lastEventId = request.headers['last-event-id'];
      const fromHeader =
        lastEventId === undefined || lastEventId === '' ? undefined : await ctx.events.feedPosition(companyId, lastEventId, { header: 'Last-Event-ID' });
      const resumed = fromHeader ?? (request.query.after !== undefined ? fromQuery : undefined);
      if (resumed !== undefined) await ctx.events.ensureFeedKept(companyId, resumed);
      const place = companyShares.take(companyId);
      if (!place) {
        throw tooManyRequests(
          `this company already has ${perCompany} event streams open on this server process, the most WRS_STREAMS_PER_COMPANY allows; ` +
            `close one, or retry in ${STREAM_RETRY_AFTER_S} s`,
          STREAM_RETRY_AFTER_S,
        );
      }
      // The place is the stream's until its answer is over, however it ends (the client leaving, a
      // slow client cut off, shutdown, an error before the stream started).
      whenResponseCloses(reply.raw, place.release);
      const after = fromHeader ?? (request.query.after !== undefined ? fromQuery : await ctx.events.feedEnd(companyId));

      const body = new PassThrough();
      const raw = reply.raw;
      let following: Following | undefined;
      const unsent = () => body.writableLength + body.readableLength + raw.writableLength;
      const stream: OpenStream = {
        send(text) {
          if (body.destroyed || body.writableEnded) return 'closed';
          // Past the bound the client is dropped rather than buffered for: it resumes with Last-Event-ID.
          if (unsent() > maxBufferBytes) {
            request.log.info({ unsent: unsent() }, 'event stream client too slow: disconnected');
            stop();
            raw.destroy();
            return 'closed';
          }
          body.write(text);
          return body.writableNeedDrain || raw.writableNeedDrain ? 'full' : 'ready';
        },
        end() {
          stop();
          body.end();
        },
      };
      const stop = () => {
        open.delete(stream);
        following?.stop();
      };
      // Resumed once what this stream holds has gone to the socket and the socket's buffer has
      // drained. A page can be handed over before the answer has started (the follower's first
      // read may come before the stream is piped to the socket): the stream's writable side then
      // drains at once into its readable side while nothing has been sent. The pipe resumes the
      // stream when it starts and whenever the socket has drained after holding it back.
      const whenDrained = (): void => {
        if (body.readableFlowing !== true) body.once('resume', whenDrained);
        else if (body.writableNeedDrain) body.once('drain', whenDrained);
        // Just resumed: the pipe moves what is buffered once this listener returns.
        else if (body.readableLength > 0) setImmediate(whenDrained);
        else if (raw.writableNeedDrain) raw.once('drain', whenDrained);
        else following?.resume();
      };
      raw.once('close', stop);
      body.once('close', stop);
      open.add(stream);
      // The first bytes send the headers at once, so the client knows it is connected.
      body.write(`retry: 1000\n\n`);
      following = ctx.feedFollowers.follow({
        companyId,
        type,
        after,
        deliver: (page) => {
          const answer = stream.send(sseMessages(page));
          if (answer === 'full') whenDrained();
          return answer;
        },
        expired: (error) => {
          // The answer has begun (200): the refusal a reconnection would get comes as the last message.
          if (!body.destroyed && !body.writableEnded) body.write(sseError(error));
          stream.end();
        },
      });
      return reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-accel-buffering', 'no')
        .send(body as never);
    },
  );
};
