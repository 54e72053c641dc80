import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../app-context.js';
import { attachmentDisposition } from '../../content-disposition.js';
import { identityOf } from '../../plugins/authenticate.js';
import { errorResponses } from '../../schemas/errors.js';

const FileParams = Type.Object({
  record: Type.String({ minLength: 1, maxLength: 200 }),
  fileId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const fileRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/records/:record/files/:fileId',
    {
      config: { allowRecordToken: true },
      schema: {
        operationId: 'downloadRecordFile',
        summary: 'Download a stored file of a record (a PDF made by pdf_create)',
        description: 'The download_url of a pdf_create step. A record token for this record may download it too.',
        tags: ['files'],
        params: FileParams,
        response: {
          200: {
            description: 'the file\'s bytes',
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          },
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const { companyId } = identityOf(request);
      const { file, bytes } = await ctx.files.download(companyId, request.params.record, request.params.fileId);
      return reply
        .header('content-type', file.content_type)
        .header('content-disposition', attachmentDisposition(file.filename))
        .header('etag', `"${file.sha256}"`)
        .header('cache-control', 'private, no-cache')
        .header('x-content-type-options', 'nosniff')
        .send(bytes);
    },
  );
};
