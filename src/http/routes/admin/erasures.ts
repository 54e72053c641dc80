import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../app-context.js';
import { ErasureSchema } from '../../../domain/lifecycle/erasure.js';
import { ErasureRequestBody } from '../../../domain/lifecycle/erasure-request.js';
import { CompanyId, CompanyParams } from '../../schemas/company.js';
import { errorResponses } from '../../schemas/errors.js';
import { withExample } from '../../schemas/examples.js';
import { exampleErasure, exampleErasureStarted } from '../../schemas/lifecycle-examples.js';

const ErasureParams = Type.Object({ company: CompanyId(), id: Type.String({ minLength: 1, maxLength: 200 }) });
const ErasureList = Type.Object({ count: Type.Integer(), results: Type.Array(ErasureSchema) }, { title: 'ErasureList' });

/** Operator API: erasing a person's data (docs/data-lifecycle.md, "Erasing a person's data"). */
export const adminErasureRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/companies/:company/erasures',
    {
      config: { idempotency: 'admin.erasures.create' },
      schema: {
        operationId: 'adminEraseUser',
        summary: "Erase a person's data: their events and the record tokens they minted",
        description:
          'Starts a job that removes every event of the company whose user_id is the value (user_key is its alias; give one of ' +
          'the two), then every record token minted by that user, WRS_LIFECYCLE_BATCH_ROWS rows per transaction. Answers 202 ' +
          'with the job; GET it until its state is done to read the counts. Asking again for the same person while the job ' +
          'runs answers that job; after it finished, a new job (which removes what came in since). The job never stores the ' +
          'value in clear, only a keyed hash.',
        tags: ['operator'],
        params: CompanyParams,
        body: ErasureRequestBody,
        response: { 202: withExample(ErasureSchema, exampleErasureStarted, 'the job, started (or the same running job)'), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const { company } = request.params;
      const { erasure } = await ctx.erasures.request(company, request.body, 'operator_api');
      ctx.erasures.runInBackground(company, erasure.id, (error) =>
        request.log.error({ err: error, erasure: erasure.id }, 'erasure failed; it is continued once its lease lapses'),
      );
      return reply
        .code(202)
        .header('location', `/admin/v1/companies/${encodeURIComponent(company)}/erasures/${erasure.id}`)
        .send(erasure);
    },
  );

  app.get(
    '/companies/:company/erasures',
    {
      schema: {
        operationId: 'adminListErasures',
        summary: "List a company's erasures: running jobs and the audit entries of finished ones, newest first",
        description:
          'Every erasure of the company, newest first: a running job with its progress, a finished one as its audit entry ' +
          '(the counts removed, the batches, the keyed hash of the person; never the value in clear).',
        tags: ['operator'],
        params: CompanyParams,
        response: { 200: withExample(ErasureList, { count: 1, results: [exampleErasure] }, "the company's erasures"), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const results = await ctx.erasures.list(request.params.company);
      return { count: results.length, results };
    },
  );

  app.get(
    '/companies/:company/erasures/:id',
    {
      schema: {
        operationId: 'adminGetErasure',
        summary: 'Read one erasure: its progress while it runs, its audit entry once done',
        description:
          'One erasure of the company by the ID its POST answered: GET it until its state is done, then read the events and ' +
          'record tokens removed. 404 when the company has no erasure by that ID.',
        tags: ['operator'],
        params: ErasureParams,
        response: { 200: withExample(ErasureSchema, exampleErasure, 'the job, or its audit entry once done'), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ctx.erasures.get(request.params.company, request.params.id),
  );
};
