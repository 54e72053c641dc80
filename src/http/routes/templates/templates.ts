import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../app-context.js';
import { identityOf } from '../../plugins/authenticate.js';
import { errorResponses } from '../../schemas/errors.js';
import { TEMPLATE_SUMMARY_EXAMPLE, TemplateList } from './schemas.js';

/** Discovery: the templates a company user may name in a `pdf_create` step (the operator stores them). */
export const templateRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/templates',
    {
      schema: {
        operationId: 'listTemplates',
        summary: "List the company's PDF templates",
        description:
          "Every PDF template of the caller's company by ID, without its body: the IDs that `template_id` of a " +
          '`pdf_create` step may name. Templates are stored through the operator API. Record tokens are refused with 403.',
        tags: ['steps'],
        response: {
          200: { ...TemplateList, examples: [{ count: 1, results: [TEMPLATE_SUMMARY_EXAMPLE] }], description: "the company's templates, without bodies" },
          ...errorResponses(401, 403),
        },
      },
    },
    async (request) => {
      const results = await ctx.templates.list(identityOf(request).companyId);
      return { count: results.length, results };
    },
  );
};
