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
  created_at: string;
  updated_at: string;
}

/** One row per event type of an enabled webhook: what the outbox reads inside every write. */
export interface WebhookSubscriptionsTable {
  company_id: string;
  event_type: string;
  webhook_id: string;
}

export interface WebhookDeliveriesTable {
  company_id: string;
  id: string;
  webhook_id: string;
  event_type: string;
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string;
  /** A worker holds the delivery until then; the creation time (already past) when none does. */
  lease_until: string;
  lease_owner: string | null;
  created_at: string;
  delivered_at: string | null;
}

export interface WebhooksTables {
  webhooks: WebhooksTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
