import type { WebhookEventType } from './event-types.js';
import type { DeliveryStatus } from './webhook.js';

/** A webhook as stored: `events` is a JSON array, `secret` sealed by the secret box. */
export interface StoredWebhook {
  id: string;
  url: string;
  events: string;
  description: string | null;
  enabled: boolean;
  secret: string;
  created_at: string;
  updated_at: string;
}

/** A delivery as stored: `payload` is the exact body sent on every attempt. */
export interface StoredDelivery {
  id: string;
  webhook_id: string;
  event_type: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  /** The start of the last answer's body (at most 64 KiB as UTF-8), null when no answer was read. */
  last_response_body: string | null;
  next_attempt_at: string;
  lease_until: string;
  lease_owner: string | null;
  created_at: string;
  delivered_at: string | null;
}

/** A new delivery of an event to one webhook. */
export interface NewDelivery {
  id: string;
  webhookId: string;
  eventType: WebhookEventType;
  payload: string;
  createdAt: string;
}
