import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../app-context.js';
import { CreatedWebhookSchema, RotatedSecretSchema, WebhookSchema } from '../../../domain/webhooks/webhook.js';
import { identityOf } from '../../plugins/authenticate.js';
import { resourceUrl } from '../../public-base-url.js';
import { createdWithLocation } from '../../schemas/created.js';
import { ErrorResponse, errorResponses } from '../../schemas/errors.js';
import { optionalObjectBody } from '../records/object-body.js';
import { withExample } from '../../schemas/examples.js';
import { exampleCreatedWebhook, exampleRotatedSecret, exampleWebhook } from './examples.js';
import { CreateWebhookBody, PatchWebhookBody, RotateSecretBody, WebhookList, WebhookParams } from './schemas.js';

/** Webhooks of the caller's company, managed by its users (a record token gets 403 on every route). */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const webhooks = ctx.webhooks;

  app.post(
    '/webhooks',
    {
      config: { idempotency: 'webhooks.create' },
      schema: {
        operationId: 'createWebhook',
        summary: 'Register a webhook',
        description:
          'Changes of the subscribed types are POSTed to the URL, signed by the Standard Webhooks rules. The answer is the only ' +
          'one that shows the signing secret. 400 for an unknown event type, or a URL that is not https or names a loopback, ' +
          'private or other non-public address. 409 webhook_limit_reached when the company already has ' +
          'WRS_WEBHOOK_MAX_PER_COMPANY webhooks (default 20): delete one to add another.',
        tags: ['webhooks'],
        body: CreateWebhookBody,
        response: {
          201: createdWithLocation(withExample(CreatedWebhookSchema, exampleCreatedWebhook), 'webhook registered; keep its secret'),
          ...errorResponses(400, 401, 403),
          409: {
            ...ErrorResponse,
            description:
              'webhook_limit_reached: the company has WRS_WEBHOOK_MAX_PER_COMPANY webhooks already (`limit` says how many); ' +
              'or idempotency_key_in_use: a request with this Idempotency-Key is still running (Retry-After)',
          },
        },
      },
    },
    async (request, reply) => {
      const created = await webhooks.create(identityOf(request).companyId, request.body);
      return reply
        .code(201)
        .header('location', resourceUrl(request, ctx.config, 'v1', 'webhooks', created.id))
        .send(created);
    },
  );

  app.get(
    '/webhooks',
    {
      schema: {
        operationId: 'listWebhooks',
        summary: "List the company's webhooks",
        description: 'Every webhook of the company, oldest first, without secrets.',
        tags: ['webhooks'],
        response: { 200: withExample(WebhookList, { count: 1, results: [exampleWebhook] }, 'the webhooks'), ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const results = await webhooks.list(identityOf(request).companyId);
      return { count: results.length, results };
    },
  );

  app.get(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'getWebhook',
        summary: 'Read a webhook',
        description: 'The webhook without its secret.',
        tags: ['webhooks'],
        params: WebhookParams,
        response: { 200: withExample(WebhookSchema, exampleWebhook, 'the webhook'), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => webhooks.get(identityOf(request).companyId, request.params.id),
  );

  app.patch(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'updateWebhook',
        summary: 'Change a webhook',
        description: 'Changes the fields given (url, events, description, enabled); the secret stays. Re-enables a webhook a 410 disabled.',
        tags: ['webhooks'],
        params: WebhookParams,
        body: PatchWebhookBody,
        response: { 200: withExample(WebhookSchema, exampleWebhook, 'the changed webhook'), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => webhooks.update(identityOf(request).companyId, request.params.id, request.body),
  );

  app.post(
    '/webhooks/:id/secret',
    {
      ...optionalObjectBody,
      config: { ...optionalObjectBody.config, idempotency: 'webhooks.rotate_secret' },
      schema: {
        operationId: 'rotateWebhookSecret',
        summary: "Rotate a webhook's signing secret",
        description:
          'Makes a new signing secret, shown only in this answer, that signs every delivery from now on. For the overlap ' +
          'the caller chooses (overlap_seconds: default 86400 = 24 h, at most 604800 = 7 days) the previous secret signs too: ' +
          'webhook-signature then carries two signatures, `v1,<new> v1,<previous>`, and a receiver holding either secret ' +
          'verifies (Standard Webhooks). After previous_secret_expires_at only the new one signs; overlap_seconds 0 stops ' +
          'the previous secret at once. A rotation during an overlap ends the earlier previous secret: only the secret ' +
          'current before this call keeps signing. 400 for an overlap out of range; 404 for a webhook the company does not have.',
        tags: ['webhooks'],
        params: WebhookParams,
        body: RotateSecretBody,
        response: {
          200: withExample(RotatedSecretSchema, exampleRotatedSecret, 'the new secret; keep it'),
          ...errorResponses(400, 401, 403, 404),
          409: { ...ErrorResponse, description: 'idempotency_key_in_use: a request with this Idempotency-Key is still running (Retry-After)' },
        },
      },
    },
    // The body's content is checked by the domain (optionalObjectBody checks only that it is an object, if any).
    async (request) => webhooks.rotateSecret(identityOf(request).companyId, request.params.id, request.body as Record<string, unknown> | undefined),
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook',
        description: 'Deletes the webhook and its delivery history; pending deliveries are not sent.',
        tags: ['webhooks'],
        params: WebhookParams,
        response: { 204: Type.Null({ description: 'deleted' }), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await webhooks.remove(identityOf(request).companyId, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
