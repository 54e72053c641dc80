import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../app-context.js';
import { identityOf } from '../../plugins/authenticate.js';
import { publicBaseUrl } from '../../public-base-url.js';
import { errorResponses } from '../../schemas/errors.js';
import { RecordParams, StoredFileList } from '../steps/schemas.js';
import { fileDetails } from './file-details.js';

const FILE_EXAMPLE = {
  file_id: '019a8f3c-5e21-7c4a-9b7e-2f4d8c1a6e90',
  pdf_filename: 'loan-summary.pdf',
  content_type: 'application/pdf',
  size_bytes: 18342,
  pages: 1,
  sha256: '9f2c4e1b7a3d5f60c8e2b4a6d8f0e1c3b5a7d9f1e3c5b7a9d1f3e5c7b9a1d3f5',
  download_url: 'http://127.0.0.1:3000/v1/records/019a8f3b-0c11-7d2e-8f3a-4b5c6d7e8f90/files/019a8f3c-5e21-7c4a-9b7e-2f4d8c1a6e90',
  created_at: '2026-11-22T14:05:12.345Z',
};

export const listFileRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/records/:record/files',
    {
      config: { allowRecordToken: true },
      schema: {
        operationId: 'listRecordFiles',
        summary: 'List the stored files of a record',
        description:
          "The files pdf_create stored for the record, newest first, each as in the step's details (with its " +
          "download_url). 404 when the caller's company has no such record. A record token for this record may list them too.",
        tags: ['files'],
        params: RecordParams,
        response: {
          200: { ...StoredFileList, examples: [{ count: 1, results: [FILE_EXAMPLE] }], description: "the record's files, newest first" },
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => {
      const files = await ctx.files.listForRecord(identityOf(request).companyId, request.params.record);
      const base = publicBaseUrl(request, ctx.config);
      const results = files.map((file) => fileDetails(file, base));
      return { count: results.length, results };
    },
  );
};
