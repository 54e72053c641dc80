import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../app-context.js';
import { NdjsonBody, NDJSON_MEDIA_TYPES } from '../../../contracts/ndjson.js';
import { IMPORT_BODY_LIMIT_BYTES, importEntries } from '../../../contracts/records-import.js';
import { invalidBody } from '../../../errors/app-error.js';
import { CompanyParams } from '../../schemas/company.js';
import { errorResponses } from '../../schemas/errors.js';
import { RecordSchema } from '../../../domain/records/record.js';
import { withExample } from '../../schemas/examples.js';

const ImportedRecord = Type.Partial(RecordSchema, {
  title: 'ImportedRecord',
  description:
    'A record in the Record shape; record_type is required, status too unless the record is of a defined custom type. ' +
    'id is kept when given; timestamps default to now; absent keys stay absent.',
});

/** Operator API: import records of any kind, all or nothing. */
export const adminRecordImportRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Encapsulated in this plugin: other routes keep their own parsers.
  app.addContentTypeParser(NDJSON_MEDIA_TYPES, { parseAs: 'buffer', bodyLimit: IMPORT_BODY_LIMIT_BYTES }, (_request: FastifyRequest, body: Buffer) =>
    NdjsonBody.read([body]),
  );

  app.post(
    '/companies/:company/records',
    {
      config: { idempotency: 'admin.records.import' },
      bodyLimit: IMPORT_BODY_LIMIT_BYTES,
      // The domain checks every record and reports all problems at once.
      validatorCompiler: () => (data: unknown) => ({ value: data }),
      schema: {
        operationId: 'adminImportRecords',
        summary: 'Import records of any kind',
        description:
          'A JSON array, or NDJSON (application/x-ndjson, one record per line). All or nothing: any problem refuses the whole ' +
          'request with a 400 listing the problems (errors: [{index, field, message}], index 0-based, for NDJSON the line ' +
          'number minus one; at most 100 listed, error_count the total); an existing id is a problem.',
        tags: ['operator'],
        consumes: ['application/json', ...NDJSON_MEDIA_TYPES],
        params: CompanyParams,
        body: Type.Array(ImportedRecord),
        response: {
          200: withExample(Type.Object({ imported: Type.Integer() }), { imported: 0 }, 'an empty import: nothing created'),
          201: withExample(Type.Object({ imported: Type.Integer() }), { imported: 2 }, 'every record created'),
          ...errorResponses(400, 401, 413, 415),
        },
      },
    },
    async (request, reply) => {
      const entries = importEntries(request.body);
      if (!entries) throw invalidBody('send a JSON array of records, or NDJSON (application/x-ndjson) with one record per line');
      const imported = await ctx.records.import(request.params.company, entries);
      return reply.code(imported > 0 ? 201 : 200).send({ imported });
    },
  );
};
