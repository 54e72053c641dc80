import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../app-context.js';
import { NDJSON_MEDIA_TYPES } from '../../../contracts/ndjson.js';
import { invalidBody } from '../../../errors/app-error.js';
import { CompanyParams } from '../../schemas/company.js';
import { errorResponses } from '../../schemas/errors.js';
import { RecordSchema } from '../../../domain/records/record.js';
import { withExample } from '../../schemas/examples.js';
import { checkedByTheRoute } from '../../validator-compiler.js';

const ImportedRecord = Type.Partial(RecordSchema, {
  title: 'ImportedRecord',
  description:
    'A record in the Record shape; record_type is required, status too unless the record is of a defined custom type. ' +
    'id is kept when given; timestamps default to now; absent keys stay absent.',
});

/** The client went away mid-body: its own fault, not the service's. */
const isCutOff = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE';
};

/** Operator API: import records of any kind as a stream (JSON array or NDJSON), all or nothing. */
export const adminRecordImportRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  // In this plugin only: the body reaches the handler as the raw stream, unread and without
  // the body limit, and the records service reads it record by record.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(['application/json', ...NDJSON_MEDIA_TYPES], (_request, payload, done) => done(null, payload));

  app.post(
    '/companies/:company/records',
    {
      config: { idempotency: 'admin.records.import' },
      // The body schema documents the route; the service checks each record as it streams in.
      validatorCompiler: checkedByTheRoute,
      schema: {
        operationId: 'adminImportRecords',
        summary: 'Import records of any kind',
        description:
          'A JSON array (application/json), or NDJSON (application/x-ndjson, one record per line), streamed: no body ' +
          'limit. Records are checked and stored a batch at a time in one transaction. All or nothing: any problem ' +
          'refuses the whole request with a 400 listing the problems (errors: [{index, field, message}], index 0-based, ' +
          'for NDJSON the line number minus one; at most 100 listed, error_count the total), and nothing is stored; an ' +
          'existing id is a problem, and so is text holding NUL or an unpaired surrogate (field: where, e.g. fields.Borrower).',
        tags: ['operator'],
        consumes: ['application/json', ...NDJSON_MEDIA_TYPES],
        params: CompanyParams,
        body: Type.Array(ImportedRecord),
        response: {
          200: withExample(Type.Object({ imported: Type.Integer() }), { imported: 0 }, 'an empty import: nothing created'),
          201: withExample(Type.Object({ imported: Type.Integer() }), { imported: 2 }, 'every record created'),
          ...errorResponses(400, 401, 415),
        },
      },
    },
    async (request, reply) => {
      const body = request.body as unknown as Readable | undefined;
      if (body === undefined) throw invalidBody('the body is empty: send a JSON array of records, or NDJSON (application/x-ndjson) with one record per line');
      try {
        const imported = await ctx.records.import(request.params.company, body.iterator({ destroyOnReturn: false }), {
          format: NDJSON_MEDIA_TYPES.includes(request.mediaType ?? '') ? 'ndjson' : 'array',
        });
        return reply.code(imported > 0 ? 201 : 200).send({ imported });
      } catch (error) {
        // A refused body may not have been read to its end; the connection closes after the answer.
        reply.header('connection', 'close');
        if (isCutOff(error)) throw invalidBody('the request body ended before its end (connection lost); nothing was imported');
        throw error;
      }
    },
  );
};
