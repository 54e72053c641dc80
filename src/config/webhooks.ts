import { Type, type Static } from '@sinclair/typebox';

/** Outgoing webhooks: where they may go and how hard the delivery worker tries. Part of the one environment schema in `config.ts`. */
export const WebhooksEnv = {
  WRS_WEBHOOK_ALLOW_PRIVATE_URLS: Type.Boolean({ default: false }),
  WRS_WEBHOOK_TIMEOUT_MS: Type.Integer({ default: 10_000, minimum: 100, maximum: 300_000 }),
  WRS_WEBHOOK_RETRY_BASE_MS: Type.Integer({ default: 5000, minimum: 1, maximum: 3_600_000 }),
  WRS_WEBHOOK_MAX_ATTEMPTS: Type.Integer({ default: 8, minimum: 1, maximum: 50 }),
  WRS_WEBHOOK_CONCURRENCY: Type.Integer({ default: 128, minimum: 1, maximum: 1024 }),
  WRS_WEBHOOK_POLL_MS: Type.Integer({ default: 500, minimum: 10, maximum: 60_000 }),
  WRS_WEBHOOK_MAX_PER_COMPANY: Type.Integer({ default: 20, minimum: 1, maximum: 1000 }),
};

const WebhooksEnvSchema = Type.Object(WebhooksEnv);
type WebhooksEnvValues = Static<typeof WebhooksEnvSchema>;

export interface WebhookSettings {
  /** Let webhooks reach loopback, private and other non-public addresses, over http too (development, tests). */
  readonly allowPrivateUrls: boolean;
  /** One attempt, the whole exchange: from connecting to the last byte of the answer read (at most 64 KiB of its body). */
  readonly timeoutMs: number;
  /** The first retry waits about this long; each next one twice as long (with jitter). */
  readonly retryBaseMs: number;
  /** Attempts in all before a delivery is `failed`. */
  readonly maxAttempts: number;
  /** Attempts one process runs at once (a receiver gets at most a quarter of them, a company at most half). */
  readonly concurrency: number;
  /** How often the worker looks for deliveries it was not woken for (other replicas' work, retries). */
  readonly pollMs: number;
  /** Webhooks one company may have. */
  readonly maxPerCompany: number;
}

export function webhookSettings(env: WebhooksEnvValues): { readonly webhooks: WebhookSettings } {
  return {
    webhooks: Object.freeze({
      allowPrivateUrls: env.WRS_WEBHOOK_ALLOW_PRIVATE_URLS,
      timeoutMs: env.WRS_WEBHOOK_TIMEOUT_MS,
      retryBaseMs: env.WRS_WEBHOOK_RETRY_BASE_MS,
      maxAttempts: env.WRS_WEBHOOK_MAX_ATTEMPTS,
      concurrency: env.WRS_WEBHOOK_CONCURRENCY,
      pollMs: env.WRS_WEBHOOK_POLL_MS,
      maxPerCompany: env.WRS_WEBHOOK_MAX_PER_COMPANY,
    }),
  };
}
