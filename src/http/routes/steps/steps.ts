import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../app-context.js';
import { identityOf } from '../../plugins/authenticate.js';
import { publicBaseUrl } from '../../public-base-url.js';
import { errorResponses } from '../../schemas/errors.js';
import { checkingBodyAgainst } from '../../validator-compiler.js';
import { RecordParams, StepEnvelope, stepSchemas } from './schemas.js';
import { examplePdfCreated, withExample } from '../../schemas/examples.js';

export const stepRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { types } = ctx.steps.registry;
  const { StepBody, StepResponse } = stepSchemas(types);
  app.put(
    '/records/:record/steps',
    {
      config: { idempotency: 'steps.run' },
      schema: {
        operationId: 'runRecordStep',
        summary: 'Run a workflow step against a record',
        description:
          `${types.map((stepType) => `${stepType.type} ${stepType.summary}.`).join(' ')} ` +
          "422 when the template cannot render this record or the record's data is over the render input cap " +
          '(WRS_PDF_INPUT_LIMIT_BYTES); 503 when no render thread is free in time; 504 when the render times out.',
        tags: ['steps'],
        params: RecordParams,
        body: StepBody,
        response: {
          200: withExample(StepResponse, examplePdfCreated, 'the step ran; pdf_create stored the PDF on the record'),
          ...errorResponses(400, 401, 403, 404, 413, 422, 503, 504),
        },
      },
      // The body schema documents every type's inputs; the validator checks its shape (StepEnvelope).
      validatorCompiler: checkingBodyAgainst(StepEnvelope),
    },
    async (request) => {
      const { companyId } = identityOf(request);
      const baseUrl = publicBaseUrl(request, ctx.config);
      return ctx.steps.run(companyId, request.params.record, request.body, baseUrl);
    },
  );
};
