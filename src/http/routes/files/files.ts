import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../app-context.js';
import { attachmentDisposition } from '../../content-disposition.js';
import { heldByClient, sendNotModified, strongEtag } from '../../conditional-requests.js';
import { identityOf } from '../../plugins/authenticate.js';
import { etagHeaders, IfNoneMatchHeaders, notModifiedResponse } from '../../schemas/conditional.js';
import { errorResponses } from '../../schemas/errors.js';
import { examplePdf } from '../../schemas/examples.js';

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
        description:
          'The download_url of a pdf_create step. A record token for this record may download it too. ' +
          "The ETag is the content's SHA-256; If-None-Match with it answers 304 with no body.",
        tags: ['files'],
        params: FileParams,
        headers: IfNoneMatchHeaders,
        response: {
          200: {
            description: "the file's bytes",
            headers: etagHeaders,
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' }, example: examplePdf } },
          },
          ...notModifiedResponse,
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const { companyId } = identityOf(request);
      // The content's hash is a strong ETag: a held copy with it is answered 304, the bytes unread.
      const { file, bytes } = await ctx.files.download(companyId, request.params.record, request.params.fileId, (stored) =>
        heldByClient(request, reply, strongEtag(stored.sha256)),
      );
      reply.header('cache-control', 'private, no-cache');
      if (bytes === null) return sendNotModified(reply);
      return reply
        .header('content-type', file.content_type)
        .header('content-disposition', attachmentDisposition(file.filename))
        .header('x-content-type-options', 'nosniff')
        .send(bytes);
    },
  );
};
