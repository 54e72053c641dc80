import { WEBHOOK_EVENT_TYPES } from '../../domain/webhooks/event-types.js';
import type { StepType } from '../../domain/steps/step-type.js';
import { webhookBodyExample, webhookBodySchema, webhookPayloads } from '../schemas/webhook-payloads.js';
import type { NamedSchemas } from './openapi-components.js';

/** The Standard Webhooks headers of every delivery (domain/webhooks/delivery-worker.ts). */
const DELIVERY_HEADERS = [
  {
    name: 'webhook-id',
    description: 'the delivery ID: the same on every attempt and on a redelivery, so a receiver drops what it already has',
    example: 'msg_019aa5d1-2c3d-7e4f-9051-6b7c8d9e0f1a',
  },
  { name: 'webhook-timestamp', description: 'Unix seconds of this attempt; refuse one too far from your clock', example: '1795191000' },
  {
    name: 'webhook-signature',
    description:
      'space-separated `v1,<base64 HMAC-SHA256 of {webhook-id}.{webhook-timestamp}.{body}>`, keyed with the secret after whsec_; ' +
      'two of them while a rotated secret overlaps the new one. Verify with any Standard Webhooks library.',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
].map(({ name, description, example }) => ({ name, in: 'header', required: true, description, schema: { type: 'string' }, example }));

const RESPONSES = {
  '200': { description: 'any 2xx within the timeout: delivered' },
  '410': { description: 'Gone: the delivery fails at once and the webhook is disabled' },
  default: { description: 'any other status, no answer in time or a redirect: the attempt failed and is retried later' },
};

/**
 * The OpenAPI 3.1 `webhooks` section: one `POST` per event type the service sends, with its
 * typed body (named components), the signature headers and an example. Generators then emit
 * a receiver's types as they emit a client's. A step.completed body names the app's step types,
 * as the steps route does.
 */
export function webhookOperations(named: NamedSchemas, stepTypes: readonly StepType[]): Record<string, unknown> {
  const payloads = webhookPayloads(stepTypes);
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `${payloads[type].name[0]!.toLowerCase()}${payloads[type].name.slice(1)}`,
          summary: type,
          description: `${payloads[type].summary}. Sent to each enabled webhook subscribed to \`${type}\` (or \`*\`), signed as Standard Webhooks says.`,
          tags: ['webhooks'],
          security: [],
          parameters: DELIVERY_HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: named.reference(webhookBodySchema(type, payloads[type])), example: webhookBodyExample(type, payloads[type]) },
            },
          },
          responses: RESPONSES,
        },
      },
    ]),
  );
}
