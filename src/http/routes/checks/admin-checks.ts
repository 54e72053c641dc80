import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../app-context.js';
import { errorResponses } from '../../schemas/errors.js';
import { domainCheckedBody } from './domain-checked-body.js';
import { AddChecksBody, AddChecksResponse, CompanyParams } from './schemas.js';
import { withExample } from '../../schemas/examples.js';

export const adminChecksRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/companies/:company/checks',
    {
      validatorCompiler: domainCheckedBody,
      schema: {
        operationId: 'adminAddChecks',
        summary: "Add checks to a company's embedded provider",
        description:
          "A JSON array of checks in Lob's check-object shape. Missing id (chk_...), date_created, date_modified, " +
          'send_date, mail_type, carrier and object are filled in; everything given is kept as it is. All are added or ' +
          'none: a 400 lists every problem of every check at once as errors: [{index, field, message}].',
        tags: ['operator'],
        params: CompanyParams,
        body: AddChecksBody,
        response: {
          200: withExample(AddChecksResponse, { added: 0 }, 'an empty batch: nothing added'),
          201: withExample(AddChecksResponse, { added: 2 }, 'every check added'),
          ...errorResponses(400, 401, 413),
        },
      },
    },
    async (request, reply) => {
      const added = await ctx.checks.add(request.params.company, request.body);
      return reply.code(added > 0 ? 201 : 200).send({ added });
    },
  );
};
