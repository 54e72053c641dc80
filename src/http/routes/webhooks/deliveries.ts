import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../app-context.js';
import { WebhookDeliverySchema } from '../../../domain/webhooks/webhook.js';
import { identityOf } from '../../plugins/authenticate.js';
import { errorResponses } from '../../schemas/errors.js';
import { withExample } from '../../schemas/examples.js';
import { exampleDelivery } from './examples.js';
import { DeliveryList, DeliveryParams, WebhookParams } from './schemas.js';

/** A webhook's delivery history, and redelivery of one delivery. */
export const webhookDeliveryRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const webhooks = ctx.webhooks;

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: "A webhook's deliveries",
        description: 'The newest 100 deliveries of the webhook, newest first, with the state of their attempts.',
        tags: ['webhooks'],
        params: WebhookParams,
        response: {
          200: withExample(DeliveryList, { count: 1, results: [exampleDelivery] }, 'the deliveries'),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => {
      const results = await webhooks.deliveries(identityOf(request).companyId, request.params.id);
      return { count: results.length, results };
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:delivery/redeliver',
    {
      schema: {
        operationId: 'redeliverWebhookDelivery',
        summary: 'Send a delivery again',
        description:
          'Makes the delivery pending and due now: a new attempt with the same body and the same webhook-id (a receiver that ' +
          'already has it can tell). Answers at once; the attempt follows.',
        tags: ['webhooks'],
        params: DeliveryParams,
        response: {
          202: withExample(
            WebhookDeliverySchema,
            { ...exampleDelivery, status: 'pending', next_attempt_at: '2026-11-21T16:00:00.000Z', delivered_at: null },
            'the delivery, pending',
          ),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const delivery = await webhooks.redeliver(identityOf(request).companyId, request.params.id, request.params.delivery);
      return reply.code(202).send(delivery);
    },
  );
};
