import { Type, type Static } from '@sinclair/typebox';
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES } from './event-types.js';

const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });

export const WebhookEventName = Type.Union(
  [...WEBHOOK_EVENT_TYPES, ALL_EVENTS].map((name) => Type.Literal(name)),
  {
    description: `an event type (${WEBHOOK_EVENT_TYPES.join(', ')}), or "*" for all of them`,
  },
);

/** A webhook as the API shows it (the secret only in the answer to its creation). */
export const WebhookSchema = Type.Object(
  {
    id: Type.String({ description: 'webhook ID' }),
    url: Type.String({ format: 'uri', description: 'where deliveries are POSTed' }),
    events: Type.Array(WebhookEventName, { description: 'the event types delivered' }),
    description: Type.Union([Type.String(), Type.Null()], { description: 'free text, null if none' }),
    enabled: Type.Boolean({ description: 'false: nothing is delivered (set by PATCH, or by the receiver answering 410 Gone)' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Webhook' },
);

export type WebhookResource = Static<typeof WebhookSchema>;

export const CreatedWebhookSchema = Type.Object(
  {
    ...WebhookSchema.properties,
    secret: Type.String({
      description: 'signing secret: "whsec_" + base64 of 32 random bytes. Shown only in this answer; keep it to verify webhook-signature',
    }),
  },
  { title: 'CreatedWebhook' },
);

export type CreatedWebhook = Static<typeof CreatedWebhookSchema>;

export const RotatedSecretSchema = Type.Object(
  {
    secret: Type.String({
      description: 'the new signing secret: "whsec_" + base64 of 32 random bytes. Shown only in this answer; it signs every delivery from now on',
    }),
    previous_secret_expires_at: Type.Union([Timestamp, Type.Null()], {
      description: 'until when the previous secret signs deliveries too (a second v1 signature); null when it stopped at once (overlap 0)',
    }),
  },
  { title: 'RotatedWebhookSecret' },
);

export type RotatedSecret = Static<typeof RotatedSecretSchema>;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One event sent (or to be sent) to one webhook, with the state of its attempts. */
export const WebhookDeliverySchema = Type.Object(
  {
    id: Type.String({ description: 'delivery ID: the webhook-id header, the same on every attempt' }),
    webhook_id: Type.String({ description: 'the webhook it is for' }),
    event_type: Type.String({ description: 'the event type' }),
    status: Type.Union(DELIVERY_STATUSES.map((status) => Type.Literal(status))),
    attempts: Type.Integer({ minimum: 0, description: 'attempts made so far' }),
    last_status_code: Type.Union([Type.Integer(), Type.Null()], { description: "the receiver's status of the last attempt, null if it gave none" }),
    last_error: Type.Union([Type.String(), Type.Null()], { description: 'why the last attempt failed, null if it did not' }),
    last_response_body: Type.Union([Type.String(), Type.Null()], {
      description:
        "the start of the receiver's answer body to the last attempt: at most 64 KiB, read within the timeout, as UTF-8 " +
        '(invalid bytes and NUL replaced by U+FFFD); null if no answer was read',
    }),
    next_attempt_at: Type.Union([Timestamp, Type.Null()], { description: 'when the next attempt is due (pending only)' }),
    created_at: Timestamp,
    delivered_at: Type.Union([Timestamp, Type.Null()], { description: 'when a 2xx arrived' }),
  },
  { title: 'WebhookDelivery' },
);

export type WebhookDeliveryResource = Static<typeof WebhookDeliverySchema>;
