import { invalidBody, notFound, webhookLimitReached } from '../../errors/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { uuidv7 } from '../../lib/ids.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { AddressResolver } from './address-resolver.port.js';
import type { DeliveriesRepository } from './deliveries-repository.port.js';
import type { StoredDelivery, StoredWebhook } from './stored-webhook.js';
import type { CreatedWebhook, DeliveryStatus, RotatedSecret, WebhookDeliveryResource, WebhookResource } from './webhook.js';
import { newWebhookSecret } from './signature.js';
import { checkWebhookUrl } from './webhook-url.js';
import type { WebhookChange, WebhooksRepository } from './webhooks-repository.port.js';

/** How long the previous secret signs beside a rotated one, unless the caller says: a day. */
export const DEFAULT_ROTATION_OVERLAP_SECONDS = 24 * 60 * 60;
/** The longest overlap a rotation may ask for: a week. */
export const MAX_ROTATION_OVERLAP_SECONDS = 7 * 24 * 60 * 60;

/** Deliveries one history answer shows at most. */
export const DELIVERY_HISTORY_LIMIT = 100;

export interface NewWebhook {
  url: string;
  events: string[];
  description?: string | null;
  enabled?: boolean;
}

export type WebhookPatch = Partial<NewWebhook>;

export interface WebhooksService {
  create(companyId: string, input: NewWebhook): Promise<CreatedWebhook>;
  list(companyId: string): Promise<WebhookResource[]>;
  get(companyId: string, id: string): Promise<WebhookResource>;
  update(companyId: string, id: string, patch: WebhookPatch): Promise<WebhookResource>;
  remove(companyId: string, id: string): Promise<void>;
  /** A new secret; the previous one signs too for the body's `overlap_seconds` (default a day; 0: it stops at once). */
  rotateSecret(companyId: string, id: string, body: Record<string, unknown> | undefined): Promise<RotatedSecret>;
  deliveries(companyId: string, id: string): Promise<WebhookDeliveryResource[]>;
  redeliver(companyId: string, id: string, deliveryId: string): Promise<WebhookDeliveryResource>;
  /** The company's deliveries, newest first (at most 100), optionally of one status: the operator's view. */
  companyDeliveries(companyId: string, status?: DeliveryStatus): Promise<WebhookDeliveryResource[]>;
}

export interface WebhooksServiceDeps {
  webhooks: WebhooksRepository;
  deliveries: DeliveriesRepository;
  secretBox: SecretBox;
  resolver: AddressResolver;
  allowPrivateUrls: boolean;
  /** Webhooks one company may have (WRS_WEBHOOK_MAX_PER_COMPANY). */
  maxPerCompany: number;
  clock: Clock;
  /** Called when a redelivery is due (wakes the delivery worker). */
  onRedeliver: () => void;
}

/** The context a webhook's sealed secret is bound to: it opens for this webhook of this company only. */
export const secretContext = (companyId: string, webhookId: string): string => `webhook:${companyId}:${webhookId}`;

export function createWebhooksService(deps: WebhooksServiceDeps): WebhooksService {
  const { webhooks, deliveries, secretBox, resolver, allowPrivateUrls, clock } = deps;

  async function existing(companyId: string, id: string): Promise<StoredWebhook> {
    const found = await webhooks.find(companyId, id);
    if (!found) throw notFound(`webhook '${id}' not found`);
    return found;
  }

  return {
    async create(companyId, input) {
      const url = await checkWebhookUrl(input.url, allowPrivateUrls, resolver);
      const now = clock.now();
      const id = uuidv7(now.getTime());
      const secret = newWebhookSecret();
      const stored: StoredWebhook = {
        id,
        url,
        events: JSON.stringify(distinctEvents(input.events)),
        description: input.description ?? null,
        enabled: input.enabled ?? true,
        secret: secretBox.seal(secret, secretContext(companyId, id)),
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      };
      if (!(await webhooks.insert(companyId, stored, deps.maxPerCompany))) throw webhookLimitReached(deps.maxPerCompany);
      return { ...toWebhookResource(stored), secret };
    },

    async list(companyId) {
      return (await webhooks.list(companyId)).map(toWebhookResource);
    },

    async get(companyId, id) {
      return toWebhookResource(await existing(companyId, id));
    },

    async update(companyId, id, patch) {
      await existing(companyId, id);
      const change: { -readonly [K in keyof WebhookChange]: WebhookChange[K] } = { updated_at: clock.now().toISOString() };
      if (patch.url !== undefined) change.url = await checkWebhookUrl(patch.url, allowPrivateUrls, resolver);
      if (patch.events !== undefined) change.events = JSON.stringify(distinctEvents(patch.events));
      if (patch.description !== undefined) change.description = patch.description;
      if (patch.enabled !== undefined) change.enabled = patch.enabled;
      const updated = await webhooks.update(companyId, id, change);
      if (!updated) throw notFound(`webhook '${id}' not found`);
      return toWebhookResource(updated);
    },

    async remove(companyId, id) {
      if (!(await webhooks.remove(companyId, id))) throw notFound(`webhook '${id}' not found`);
    },

    async rotateSecret(companyId, id, body) {
      const overlapSeconds = rotationOverlap(body);
      const now = clock.now();
      const secret = newWebhookSecret();
      const expiresAt = overlapSeconds === 0 ? null : new Date(now.getTime() + overlapSeconds * 1000).toISOString();
      const rotated = await webhooks.rotateSecret(companyId, id, secretBox.seal(secret, secretContext(companyId, id)), expiresAt, now.toISOString());
      if (!rotated) throw notFound(`webhook '${id}' not found`);
      return { secret, previous_secret_expires_at: expiresAt };
    },

    async deliveries(companyId, id) {
      await existing(companyId, id);
      return (await deliveries.listForWebhook(companyId, id, DELIVERY_HISTORY_LIMIT)).map(toDeliveryResource);
    },

    async redeliver(companyId, id, deliveryId) {
      await existing(companyId, id);
      const delivery = await deliveries.redeliver(companyId, id, deliveryId, clock.now().toISOString());
      if (!delivery) throw notFound(`webhook '${id}' has no delivery '${deliveryId}'`);
      deps.onRedeliver();
      return toDeliveryResource(delivery);
    },

    async companyDeliveries(companyId, status) {
      return (await deliveries.listForCompany(companyId, status, DELIVERY_HISTORY_LIMIT)).map(toDeliveryResource);
    },
  };
}

/** The overlap a rotation asks for: the body is optional, and `overlap_seconds` its only field. */
function rotationOverlap(body: Record<string, unknown> | undefined): number {
  const unknown = Object.keys(body ?? {}).filter((name) => name !== 'overlap_seconds');
  if (unknown.length > 0) throw invalidBody(`unknown field(s) ${unknown.join(', ')}: the body may only hold overlap_seconds`);
  const overlap = body?.overlap_seconds ?? DEFAULT_ROTATION_OVERLAP_SECONDS;
  if (typeof overlap !== 'number' || !Number.isInteger(overlap) || overlap < 0 || overlap > MAX_ROTATION_OVERLAP_SECONDS) {
    throw invalidBody(
      `overlap_seconds: a whole number of seconds from 0 (the old secret stops at once) to ${MAX_ROTATION_OVERLAP_SECONDS} (7 days), not ${JSON.stringify(overlap)}`,
    );
  }
  return overlap;
}

function distinctEvents(events: readonly string[]): string[] {
  if (events.length === 0) throw invalidBody('events: name at least one event type, or "*" for all');
  return [...new Set(events)];
}

export function toWebhookResource(row: StoredWebhook): WebhookResource {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as WebhookResource['events'],
    description: row.description,
    enabled: row.enabled,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toDeliveryResource(row: StoredDelivery): WebhookDeliveryResource {
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    last_response_body: row.last_response_body,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    created_at: row.created_at,
    delivered_at: row.delivered_at,
  };
}
