import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { AppContext } from '../../../app-context.js';
import { IngestedEvent } from '../../../domain/events/event-input.js';
import { invalidBody } from '../../../errors/app-error.js';
import { NDJSON_MEDIA_TYPES } from '../../../contracts/ndjson.js';
import { errorResponses } from '../../schemas/errors.js';
import { IngestParams, IngestResponse } from './schemas.js';
import { withExample } from '../../schemas/examples.js';
import { checkedByTheRoute } from '../../validator-compiler.js';

/** The client went away mid-body: its own fault, not the service's. */
const isCutOff = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE';
};

/** Operator API: ingest events as a stream (JSON array or NDJSON), all or nothing. */
export const adminEventIngestRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  // In this plugin only: the body reaches the handler as the raw stream, unread and without
  // the body limit, and the events service reads it event by event.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(['application/json', ...NDJSON_MEDIA_TYPES], (_request, payload, done) => done(null, payload));

  app.post(
    '/companies/:company/events',
    {
      config: { idempotency: 'admin.events.ingest' },
      // The body schema documents the route; the service validates each event as it streams in.
      validatorCompiler: checkedByTheRoute,
      schema: {
        operationId: 'adminIngestEvents',
        summary: 'Ingest events',
        description:
          'A JSON array of events (application/json) or NDJSON (application/x-ndjson, one event per line), streamed: no ' +
          'body limit. Missing id (UUIDv7), created_at/updated_at (now) and excluded (false) are filled in. One ' +
          'transaction per request: bad events refuse the request with one 400 listing each (errors: [{index, field, ' +
          'message}], index 0-based, for NDJSON the line number minus one; at most 100 listed, error_count the total), ' +
          'and nothing of the request is stored. An event whose id the company already has replaces it.',
        tags: ['operator'],
        consumes: ['application/json', ...NDJSON_MEDIA_TYPES],
        params: IngestParams,
        body: Type.Array(IngestedEvent),
        response: {
          200: withExample(IngestResponse, { ingested: 2 }, 'the events were stored'),
          ...errorResponses(400, 401, 415),
        },
      },
    },
    async (request, reply) => {
      if (!Value.Check(IngestParams, request.params)) {
        throw invalidBody('the company in the path must be 1 to 200 characters');
      }
      const body = request.body as unknown as Readable | undefined;
      if (body === undefined) throw invalidBody('the body is empty: send a JSON array of events or NDJSON');
      try {
        const { ingested } = await ctx.events.ingest(request.params.company, body.iterator({ destroyOnReturn: false }), {
          format: NDJSON_MEDIA_TYPES.includes(request.mediaType ?? '') ? 'ndjson' : 'array',
        });
        return { ingested };
      } catch (error) {
        // A refused body may not have been read to its end; the connection closes after the answer.
        reply.header('connection', 'close');
        if (isCutOff(error)) throw invalidBody('the request body ended before its end (connection lost); nothing was stored');
        throw error;
      }
    },
  );
};
