import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { createTestApp, type TestApp, type TestAppOptions } from '../helpers/test-app.js';
import type { DatabaseKind } from '../helpers/databases.js';

/** The Redis the tests count in; it keeps nothing on disk, and every key expires within a minute. */
export const REDIS_PORT = 6379;
export const REDIS_URL = `redis://127.0.0.1:${REDIS_PORT}`;

/** Fails with a plain message when the Redis the tests count in is not running. */
export async function requireRedis(): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    assert.equal(await redis.ping(), 'PONG');
  } catch (error) {
    throw new Error(`no Redis answers on ${REDIS_URL}: the rate-limit tests need one running (docs/development.md)`, { cause: error });
  } finally {
    redis.disconnect();
  }
}

/** A key prefix no other test uses, so that tests never share a budget by accident. */
export function uniquePrefix(): string {
  return `wrs-test-${process.pid}-${randomBytes(6).toString('hex')}`;
}

/** A replica of the service with rate limits on, and what it logged and reported about its store. */
export interface LimitedApp extends TestApp {
  /** The rate limiter's own warnings (other parts of the app warn too, e.g. of a missing web build). */
  readonly warnings: Array<{ msg: string; leftOut: number }>;
  readonly storeErrors: Error[];
}

export interface LimitedAppOptions {
  perCompany: number;
  perAddress: number;
  /** The record tokens' own limit; 0 (unlimited) unless given. */
  perRecordToken?: number;
  redisUrl?: string;
  prefix?: string;
  timeoutMs?: number;
  /** Another replica's database, so both serve the same data. */
  database?: TestAppOptions['database'];
}

export async function createLimitedApp(kind: DatabaseKind, options: LimitedAppOptions): Promise<LimitedApp> {
  const warnings: LimitedApp['warnings'] = [];
  const storeErrors: Error[] = [];
  const env: Record<string, string> = {
    WRS_RATE_LIMIT_PER_MINUTE: String(options.perCompany),
    WRS_RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: String(options.perAddress),
    WRS_RATE_LIMIT_RECORD_TOKEN_PER_MINUTE: String(options.perRecordToken ?? 0),
  };
  if (options.redisUrl) env.WRS_REDIS_URL = options.redisUrl;
  if (options.prefix) env.WRS_REDIS_PREFIX = options.prefix;
  if (options.timeoutMs) env.WRS_REDIS_TIMEOUT_MS = String(options.timeoutMs);
  const t = await createTestApp(kind, {
    env,
    ...(options.database ? { database: options.database } : {}),
    app: {
      logger: {
        level: 'warn',
        stream: {
          write: (line: string) => {
            const entry = JSON.parse(line) as LimitedApp['warnings'][number];
            if (entry.msg.startsWith('rate limit')) warnings.push(entry);
          },
        },
      },
      rateLimitObserver: { onStoreError: (error) => storeErrors.push(error) },
    },
  });
  return Object.assign(t, { warnings, storeErrors });
}

/** A local port where nothing listens: a free one. */
export { freePort as deadPort } from '../hardening/helpers/server-process.js';

/** A request without any credential from one client address (charged to the address). */
export function anonymous(t: TestApp, remoteAddress: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url: '/v1/openapi.json', remoteAddress });
}

export function assertRateLimited(response: LightMyRequestResponse, limit: number): void {
  assert.equal(response.statusCode, 429, response.body);
  assert.equal(response.json().code, 'rate_limited');
  assert.match(String(response.headers['retry-after']), /^[1-9]\d*$/);
  assert.equal(response.headers['ratelimit-limit'], String(limit));
  assert.equal(response.headers['ratelimit-remaining'], '0');
  assert.equal(response.headers['ratelimit-policy'], `${limit};w=60`);
}

/** Served, and not counted: the store failed, so no RateLimit header promises a budget. */
export function assertServedUncounted(response: LightMyRequestResponse): void {
  assert.equal(response.statusCode, 200, response.body);
  assert.equal(response.headers['ratelimit-limit'], undefined);
}
