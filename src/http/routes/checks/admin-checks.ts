import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../app-context.js';
import type { CheckInput } from '../../../domain/checks/new-check.js';
import { errorResponses } from '../../schemas/errors.js';
import { AddChecksBody, AddChecksResponse, CompanyParams } from './schemas.js';

export const adminChecksRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/companies/:company/checks',
    {
      schema: {
        summary: "Add checks to a company's embedded provider",
        description:
          'A JSON array of checks in Lob\'s check-object shape. Missing id (chk_...), date_created, date_modified, ' +
          'send_date, mail_type, carrier and object are filled in. All are added or none (400 lists every problem).',
        tags: ['operator'],
        params: CompanyParams,
        body: AddChecksBody,
        response: { 200: AddChecksResponse, 201: AddChecksResponse, ...errorResponses(400, 401, 413) },
      },
    },
    async (request, reply) => {
      const added = await ctx.checks.add(request.params.company, request.body as CheckInput[]);
      return reply.code(added > 0 ? 201 : 200).send({ added });
    },
  );
};
