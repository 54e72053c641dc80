import type { StoredDelivery } from '../../domain/webhooks/stored-webhook.js';

/** Webhooks, the event types each enabled one subscribes to, and the outbox of deliveries. */
export interface WebhooksTable {
  company_id: string;
  id: string;
  url: string;
  /** JSON array of event types (or ["*"]). */
  events: string;
  description: string | null;
  /** 1 or 0 (an integer on both databases). */
  enabled: number;
  /** Sealed by the secret box, bound to company and webhook. */
  secret: string;
  /** The secret before the last rotation, sealed as `secret` is; it signs too until `previous_secret_expires_at`. */
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One row per event type of an enabled webhook: what the outbox reads inside every write. */
export interface WebhookSubscriptionsTable {
  company_id: string;
  event_type: string;
  webhook_id: string;
}

/**
 * The outbox: a delivery as the domain stores it, keyed by company. `lease_until` is when a
 * worker's hold ends (the creation time, already past, when none holds it).
 */
export interface WebhookDeliveriesTable extends StoredDelivery {
  company_id: string;
}

export interface WebhooksTables {
  webhooks: WebhooksTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
