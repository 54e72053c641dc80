import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../app-context.js';
import { errorResponses } from '../../schemas/errors.js';
import { withExample } from '../../schemas/examples.js';
import { exampleFailedDelivery, exampleWebhook } from './examples.js';
import { AdminDeliveriesQuery, CompanyParams, DeliveryList, WebhookList } from './schemas.js';

/** The operator's view of a company's webhooks and of their deliveries (the failed ones, typically). */
export const adminWebhookRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/companies/:company/webhooks',
    {
      schema: {
        operationId: 'adminListWebhooks',
        summary: "List a company's webhooks",
        description: 'Every webhook of the company, oldest first, without secrets.',
        tags: ['operator'],
        params: CompanyParams,
        response: { 200: withExample(WebhookList, { count: 1, results: [exampleWebhook] }, 'the webhooks'), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const results = await ctx.webhooks.list(request.params.company);
      return { count: results.length, results };
    },
  );

  app.get(
    '/companies/:company/webhook-deliveries',
    {
      schema: {
        operationId: 'adminListWebhookDeliveries',
        summary: "A company's webhook deliveries",
        description: "The newest 100 deliveries of all the company's webhooks, newest first; status=failed shows what gave up.",
        tags: ['operator'],
        params: CompanyParams,
        querystring: AdminDeliveriesQuery,
        response: {
          200: withExample(DeliveryList, { count: 1, results: [exampleFailedDelivery] }, 'the deliveries'),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => {
      const results = await ctx.webhooks.companyDeliveries(request.params.company, request.query.status);
      return { count: results.length, results };
    },
  );
};
