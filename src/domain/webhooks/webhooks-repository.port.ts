import type { TransactionScope } from '../unit-of-work.js';
import type { StoredWebhook } from './stored-webhook.js';

export type WebhookChange = Partial<Pick<StoredWebhook, 'url' | 'events' | 'description' | 'enabled'>> & { updated_at: string };

/** A company's webhooks, and the subscriptions (event type → webhook) the outbox reads. */
export interface WebhooksRepository {
  /**
   * Stores the webhook and, while it is enabled, one subscription per event type, unless the
   * company already has `limit` webhooks (false); concurrent inserts of a company are counted one after the other.
   */
  insert(companyId: string, webhook: StoredWebhook, limit: number): Promise<boolean>;
  /** The company's webhooks, oldest first. */
  list(companyId: string): Promise<StoredWebhook[]>;
  find(companyId: string, id: string): Promise<StoredWebhook | undefined>;
  /** Applies the change and rewrites the subscriptions; undefined when there is no such webhook. */
  update(companyId: string, id: string, change: WebhookChange): Promise<StoredWebhook | undefined>;
  /**
   * Replaces the sealed secret by `secret`; the one it replaces is kept as the previous secret until
   * `previousExpiresAt` (null: dropped at once). Undefined when there is no such webhook.
   */
  rotateSecret(companyId: string, id: string, secret: string, previousExpiresAt: string | null, updatedAt: string): Promise<StoredWebhook | undefined>;
  /** Deletes the webhook with its subscriptions and deliveries; false when there was none. */
  remove(companyId: string, id: string): Promise<boolean>;
  /** The ids of the company's enabled webhooks subscribed to the event type (or to all). */
  subscribers(companyId: string, eventType: string, scope: TransactionScope): Promise<string[]>;
}
