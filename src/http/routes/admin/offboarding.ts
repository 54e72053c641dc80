import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../app-context.js';
import { OffboardingSchema } from '../../../domain/lifecycle/offboarding.js';
import { CompanyParams } from '../../schemas/company.js';
import { errorResponses } from '../../schemas/errors.js';
import { withExample } from '../../schemas/examples.js';
import { exampleOffboarding, exampleOffboardingStarted } from '../../schemas/lifecycle-examples.js';

/**
 * Operator API: offboarding a company (docs/data-lifecycle.md, "Offboarding a company"). A
 * POST of a job rather than a DELETE of the company: the work outlives the request, and the
 * job is a resource of its own that answers its progress and its final report.
 */
export const adminOffboardingRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/companies/:company/offboarding',
    {
      config: { idempotency: 'admin.offboarding.start' },
      schema: {
        operationId: 'adminOffboardCompany',
        summary: 'Offboard a company: delete every row and file of it, in batches',
        description:
          "Starts a job that empties every table of the company, WRS_LIFECYCLE_BATCH_ROWS rows per transaction, files' bytes " +
          'included, and answers 202 with it; GET the same path until its state is done to read the rows removed per table. ' +
          'Asked again while it runs, it answers that job; after it finished, a new run removes what came in since. ' +
          "The company's data version is kept (and bumped), so no ETag of the removed data matches later data.",
        tags: ['operator'],
        params: CompanyParams,
        response: {
          202: withExample(OffboardingSchema, exampleOffboardingStarted, 'the offboarding, started (or the same running one)'),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request, reply) => {
      const { company } = request.params;
      const offboarding = await ctx.offboardings.request(company, 'operator_api');
      ctx.offboardings.runInBackground(company, (error) => request.log.error({ err: error }, 'offboarding failed; it is continued once its lease lapses'));
      return reply.code(202).send(offboarding);
    },
  );

  app.get(
    '/companies/:company/offboarding',
    {
      schema: {
        operationId: 'adminGetOffboarding',
        summary: "Read a company's offboarding: its progress, then its final report",
        description:
          "The company's latest offboarding: while it runs, its state and the rows removed so far per table; once done, the " +
          'final report. 404 when the company was never offboarded.',
        tags: ['operator'],
        params: CompanyParams,
        response: { 200: withExample(OffboardingSchema, exampleOffboarding, 'its progress, or its final report once done'), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ctx.offboardings.get(request.params.company),
  );
};
