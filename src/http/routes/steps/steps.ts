import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../app-context.js';
import { identityOf } from '../../plugins/authenticate.js';
import { publicBaseUrl } from '../../public-base-url.js';
import { errorResponses } from '../../schemas/errors.js';
import { fileDetails } from '../files/file-details.js';
import { RecordParams, StepBody, StepResponse } from './schemas.js';
import { examplePdfCreated, withExample } from '../../schemas/examples.js';

export const stepRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.put(
    '/records/:record/steps',
    {
      config: { idempotency: 'steps.run' },
      schema: {
        operationId: 'runRecordStep',
        summary: 'Run a workflow step against a record',
        description:
          "pdf_create renders the company's template with the record (its fields by field name, and id, " +
          'status, created_at) into a PDF, stores it and answers where to download it. 422 when the ' +
          "template cannot render this record or the record's data is over the render input cap " +
          '(WRS_PDF_INPUT_LIMIT_BYTES); 503 when no render thread is free in time; 504 when the render times out.',
        tags: ['steps'],
        params: RecordParams,
        body: StepBody,
        response: {
          200: withExample(StepResponse, examplePdfCreated, 'the step ran; pdf_create stored the PDF on the record'),
          ...errorResponses(400, 401, 403, 404, 413, 422, 503, 504),
        },
      },
    },
    async (request) => {
      const { companyId } = identityOf(request);
      const baseUrl = publicBaseUrl(request, ctx.config);
      const result = await ctx.steps.run(companyId, request.params.record, request.body, baseUrl);
      return { message: result.message, details: fileDetails(result.file, baseUrl) };
    },
  );
};
