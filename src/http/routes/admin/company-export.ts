import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../app-context.js';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION, EXPORT_MEDIA_TYPE } from '../../../domain/company-export/export-format.js';
import { attachmentDisposition } from '../../content-disposition.js';
import { CompanyParams } from '../../schemas/company.js';
import { errorResponses } from '../../schemas/errors.js';

const EXAMPLE_EXPORT = [
  `{"format":"${EXPORT_FORMAT}","version":${EXPORT_FORMAT_VERSION},"company":"acme","service_version":"0.1.0","exported_at":"2026-01-05T10:00:00.000Z","database":"sqlite"}`,
  '{"kind":"records","data":{"id":"0194...","record_type":"invoice","type_id":null,"uid":null,"status":"open","parent_record":null,"child_records":"[]","instance":null,"fields":"{}","linked":null,"views":"[]","created_at":"2026-01-05T09:00:00.000Z","updated_at":"2026-01-05T09:00:00.000Z"}}',
  '{"kind":"trailer","counts":{"record_types":0,"records":1,"events":0},"sha256":"9f2c..."}',
].join('\n');

/** A company's whole data as one NDJSON stream (docs/data-lifecycle.md, "Exporting and importing a company"). */
export const adminCompanyExportRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/companies/:company/export',
    {
      schema: {
        operationId: 'adminExportCompany',
        summary: "Export a company's whole data",
        description:
          `Streams every item of the company as NDJSON (${EXPORT_MEDIA_TYPE}): a header line (format ${EXPORT_FORMAT} version ` +
          `${EXPORT_FORMAT_VERSION}, company, service version, exported_at, database kind), one line per item ({kind, data}: ` +
          'record types, records, record token metadata, templates, files and their bytes in base64, checks, webhooks, events), ' +
          'then a trailer with the count per kind and the SHA-256 of every line before it. Secrets (webhook secrets, provider keys, ' +
          'token strings) are never included. All from one snapshot of the database, read a page at a time as the client reads; ' +
          'an answer that breaks off has no trailer, so `wrs import company` refuses it. `wrs import company FILE` loads it into another deployment.',
        tags: ['operator'],
        params: CompanyParams,
        produces: [EXPORT_MEDIA_TYPE],
        response: {
          200: {
            description: "the company's export",
            content: { [EXPORT_MEDIA_TYPE]: { schema: { type: 'string' }, example: EXAMPLE_EXPORT } },
          },
          ...errorResponses(400, 401),
        },
      },
    },
    async (request, reply) => {
      const { company } = request.params;
      // Readable.from pulls the next page only when the response has room for it: backpressure, bounded memory.
      const body = Readable.from(ctx.companyExporter.lines(company), { objectMode: false });
      return reply
        .header('content-type', `${EXPORT_MEDIA_TYPE}; charset=utf-8`)
        .header('content-disposition', attachmentDisposition(`${company}-export.ndjson`))
        .header('cache-control', 'no-store')
        .send(body);
    },
  );
};
