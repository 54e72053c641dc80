import { Type } from '@sinclair/typebox';
import { MAX_URL_LENGTH } from '../../../domain/webhooks/webhook-url.js';
import { WebhookDeliverySchema, WebhookEventName, WebhookSchema, DELIVERY_STATUSES } from '../../../domain/webhooks/webhook.js';
import { WEBHOOK_EVENT_TYPES } from '../../../domain/webhooks/event-types.js';
import { DEFAULT_ROTATION_OVERLAP_SECONDS, MAX_ROTATION_OVERLAP_SECONDS } from '../../../domain/webhooks/webhooks-service.js';
import { CompanyParams } from '../../schemas/company.js';

const Url = Type.String({
  minLength: 1,
  maxLength: MAX_URL_LENGTH,
  description: 'https URL of the receiver; never a loopback, private or other non-public address (unless the service allows them)',
});
const Events = Type.Array(WebhookEventName, {
  minItems: 1,
  maxItems: WEBHOOK_EVENT_TYPES.length + 1,
  description: 'event types to deliver, at least one; ["*"] for all',
});
// Null first: with type coercion on, a string-first union would turn null into ''.
const Description = Type.Union([Type.Null(), Type.String({ maxLength: 500 })], { description: 'free text for people, at most 500 characters' });
const Enabled = Type.Boolean({ description: 'deliver (default true)' });

export const CreateWebhookBody = Type.Object(
  { url: Url, events: Events, description: Type.Optional(Description), enabled: Type.Optional(Enabled) },
  { additionalProperties: false },
);

export const PatchWebhookBody = Type.Object(
  { url: Type.Optional(Url), events: Type.Optional(Events), description: Type.Optional(Description), enabled: Type.Optional(Enabled) },
  { additionalProperties: false, minProperties: 1, description: 'the fields to change, at least one' },
);

export const RotateSecretBody = Type.Object(
  {
    overlap_seconds: Type.Optional(
      Type.Integer({
        description: `seconds the previous secret keeps signing beside the new one: default ${DEFAULT_ROTATION_OVERLAP_SECONDS} (24 h), at most ${MAX_ROTATION_OVERLAP_SECONDS} (7 days); 0 stops it at once`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const WebhookParams = Type.Object({ id: Type.String({ maxLength: 200, description: 'webhook ID' }) });

export const DeliveryParams = Type.Object({
  id: Type.String({ maxLength: 200, description: 'webhook ID' }),
  delivery: Type.String({ maxLength: 200, description: 'delivery ID (the webhook-id header)' }),
});

export const WebhookList = Type.Object(
  { count: Type.Integer(), results: Type.Array(WebhookSchema, { description: 'oldest first' }) },
  { title: 'WebhookList' },
);

export const DeliveryList = Type.Object(
  {
    count: Type.Integer(),
    results: Type.Array(WebhookDeliverySchema, { description: 'newest first, at most 100' }),
  },
  { title: 'WebhookDeliveryList' },
);

export const AdminDeliveriesQuery = Type.Object(
  {
    status: Type.Optional(
      Type.Union(
        DELIVERY_STATUSES.map((status) => Type.Literal(status)),
        { description: 'only deliveries of this status' },
      ),
    ),
  },
  { additionalProperties: false },
);

export { CompanyParams };
