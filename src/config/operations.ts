import { availableParallelism } from 'node:os';
import { Type, type Static } from '@sinclair/typebox';
import { RedisEnv, redisSettings, type RedisSettings } from './redis.js';

/**
 * The settings of how the service runs rather than what it does: processes, timeouts, rate
 * limits, browser-facing headers and database fault handling. Part of the one environment
 * schema in `config.ts`.
 */
export const OperationsEnv = {
  WRS_WORKERS: Type.String({ default: '1', pattern: '^(auto|[1-9][0-9]{0,2})$' }),
  WRS_REQUEST_TIMEOUT_MS: Type.Integer({ default: 600_000, minimum: 0 }),
  WRS_HEADERS_TIMEOUT_MS: Type.Integer({ default: 30_000, minimum: 100 }),
  WRS_CONNECTION_TIMEOUT_MS: Type.Integer({ default: 120_000, minimum: 0 }),
  WRS_KEEP_ALIVE_TIMEOUT_MS: Type.Integer({ default: 72_000, minimum: 1 }),
  WRS_SHUTDOWN_TIMEOUT_MS: Type.Integer({ default: 25_000, minimum: 100 }),
  WRS_SHUTDOWN_DRAIN_MS: Type.Integer({ default: 0, minimum: 0, maximum: 600_000 }),
  WRS_HEAP_GROWTH_PERCENT: Type.Integer({ default: 50, minimum: 0, maximum: 1000 }),
  WRS_HEAP_PRETENURING: Type.Boolean({ default: false }),
  WRS_RATE_LIMIT_PER_MINUTE: Type.Integer({ default: 6000, minimum: 0 }),
  WRS_RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: Type.Integer({ default: 600, minimum: 0 }),
  WRS_RATE_LIMIT_RECORD_TOKEN_PER_MINUTE: Type.Integer({ default: 120, minimum: 0 }),
  ...RedisEnv,
  WRS_CORS_ORIGINS: Type.Optional(Type.String({ minLength: 1 })),
  WRS_HSTS_MAX_AGE_S: Type.Integer({ default: 0, minimum: 0 }),
  WRS_DB_POOL_SIZE: Type.Integer({ default: 10, minimum: 1, maximum: 1000 }),
  WRS_DB_CONNECT_TIMEOUT_MS: Type.Integer({ default: 5000, minimum: 100 }),
  WRS_DB_STATEMENT_TIMEOUT_MS: Type.Integer({ default: 60_000, minimum: 0 }),
  WRS_SQLITE_BUSY_TIMEOUT_MS: Type.Integer({ default: 5000, minimum: 0 }),
  WRS_LARGE_PAGES_AT_ONCE: Type.Integer({ default: 2, minimum: 1, maximum: 1000 }),
  WRS_LARGE_PAGES_PER_COMPANY: Type.Integer({ default: 1, minimum: 1, maximum: 1000 }),
  WRS_LARGE_PAGE_WAIT_MS: Type.Integer({ default: 10_000, minimum: 0 }),
  WRS_LARGE_PAGE_SEND_TIMEOUT_MS: Type.Integer({ default: 120_000, minimum: 100 }),
};

const OperationsEnvSchema = Type.Object(OperationsEnv);
type OperationsEnvValues = Static<typeof OperationsEnvSchema>;

export interface ServerSettings {
  /** Processes serving the port (node:cluster); 1 serves from the main process. */
  readonly workers: number;
  /** Longest time to receive a whole request (headers and body); 0 = no limit. */
  readonly requestTimeoutMs: number;
  readonly headersTimeoutMs: number;
  /** A socket with no traffic either way for this long is closed; 0 = never. */
  readonly connectionTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  /** Bound on draining in-flight requests after SIGTERM/SIGINT. */
  readonly shutdownTimeoutMs: number;
  /**
   * After SIGTERM/SIGINT, how long `/readyz` answers 503 while requests are still served, so
   * a load balancer's health check takes the process out before it stops accepting connections.
   */
  readonly shutdownDrainMs: number;
  /**
   * How far V8's old generation may grow past what was live at its last full collection before
   * the next one (serve/heap-growth.ts); 0 leaves it to V8.
   */
  readonly heapGrowthPercent: number;
  /** Whether V8 may allocate objects of a site straight in the old generation (serve/pretenuring.ts); off by default. */
  readonly allocationSitePretenuring: boolean;
}

export interface RateLimitSettings {
  /** Requests a minute per company of a verified credential; 0 = unlimited. */
  readonly perCompanyPerMinute: number;
  /** Requests a minute per client address without a valid credential; 0 = unlimited. */
  readonly perAddressPerMinute: number;
  /** Requests a minute per record token (by its `jti`), never charged to its company; 0 = unlimited. */
  readonly perRecordTokenPerMinute: number;
  /** Where every replica counts; null = each process counts in its own memory. */
  readonly redis: RedisSettings | null;
}

export interface BrowserSettings {
  /** Exact origins allowed by CORS; empty = CORS off. */
  readonly corsOrigins: readonly string[];
  /** Strict-Transport-Security max-age; 0 = header not sent. */
  readonly hstsMaxAgeSeconds: number;
}

export interface DatabaseSettings {
  readonly poolSize: number;
  readonly connectTimeoutMs: number;
  /** PostgreSQL statement_timeout (and, a little later, the client-side read timeout); 0 = none. */
  readonly statementTimeoutMs: number;
  readonly sqliteBusyTimeoutMs: number;
}

/** Event pages over 1,000 events: built and sent a few at a time, shared fairly between companies. */
export interface LargePageSettings {
  /** Pages built or being sent at once, in all: the bound on the memory they take. */
  readonly atOnce: number;
  /** Of those, at most this many for one company, so one company can never hold them all. */
  readonly perCompany: number;
  /** Longest wait for a place; past it `503` with `Retry-After`. */
  readonly waitMs: number;
  /** Longest time to send one page; a client reading slower is cut off. */
  readonly sendTimeoutMs: number;
}

export interface OperationsSettings {
  readonly server: ServerSettings;
  readonly rateLimit: RateLimitSettings;
  readonly browser: BrowserSettings;
  readonly database: DatabaseSettings;
  readonly largePages: LargePageSettings;
}

/** Maps the validated environment onto settings; cross-field problems are pushed to `problems`. */
export function operationsSettings(env: OperationsEnvValues, problems: string[]): OperationsSettings {
  if (env.WRS_REQUEST_TIMEOUT_MS > 0 && env.WRS_HEADERS_TIMEOUT_MS > env.WRS_REQUEST_TIMEOUT_MS) {
    problems.push('WRS_HEADERS_TIMEOUT_MS: must not exceed WRS_REQUEST_TIMEOUT_MS');
  }
  if (env.WRS_LARGE_PAGES_PER_COMPANY > env.WRS_LARGE_PAGES_AT_ONCE) {
    problems.push('WRS_LARGE_PAGES_PER_COMPANY: must not exceed WRS_LARGE_PAGES_AT_ONCE');
  }
  return Object.freeze({
    server: Object.freeze({
      workers: env.WRS_WORKERS === 'auto' ? availableParallelism() : Number(env.WRS_WORKERS),
      requestTimeoutMs: env.WRS_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: env.WRS_HEADERS_TIMEOUT_MS,
      connectionTimeoutMs: env.WRS_CONNECTION_TIMEOUT_MS,
      keepAliveTimeoutMs: env.WRS_KEEP_ALIVE_TIMEOUT_MS,
      shutdownTimeoutMs: env.WRS_SHUTDOWN_TIMEOUT_MS,
      shutdownDrainMs: env.WRS_SHUTDOWN_DRAIN_MS,
      heapGrowthPercent: env.WRS_HEAP_GROWTH_PERCENT,
      allocationSitePretenuring: env.WRS_HEAP_PRETENURING,
    }),
    rateLimit: Object.freeze({
      perCompanyPerMinute: env.WRS_RATE_LIMIT_PER_MINUTE,
      perAddressPerMinute: env.WRS_RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE,
      perRecordTokenPerMinute: env.WRS_RATE_LIMIT_RECORD_TOKEN_PER_MINUTE,
      redis: redisSettings(env, problems),
    }),
    browser: Object.freeze({
      corsOrigins: Object.freeze(corsOrigins(env.WRS_CORS_ORIGINS, problems)),
      hstsMaxAgeSeconds: env.WRS_HSTS_MAX_AGE_S,
    }),
    database: Object.freeze({
      poolSize: env.WRS_DB_POOL_SIZE,
      connectTimeoutMs: env.WRS_DB_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: env.WRS_DB_STATEMENT_TIMEOUT_MS,
      sqliteBusyTimeoutMs: env.WRS_SQLITE_BUSY_TIMEOUT_MS,
    }),
    largePages: Object.freeze({
      atOnce: env.WRS_LARGE_PAGES_AT_ONCE,
      perCompany: env.WRS_LARGE_PAGES_PER_COMPANY,
      waitMs: env.WRS_LARGE_PAGE_WAIT_MS,
      sendTimeoutMs: env.WRS_LARGE_PAGE_SEND_TIMEOUT_MS,
    }),
  });
}

/** A comma-separated list of exact origins (`scheme://host[:port]`, no path). */
function corsOrigins(value: string | undefined, problems: string[]): string[] {
  if (value === undefined) return [];
  const origins: string[] = [];
  for (const entry of value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    let origin: string | undefined;
    try {
      const url = new URL(entry);
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin === entry.replace(/\/$/, '').toLowerCase()) {
        origin = url.origin;
      }
    } catch {
      origin = undefined;
    }
    if (origin) origins.push(origin);
    else problems.push(`WRS_CORS_ORIGINS: "${entry}" is not an origin like https://app.example.com`);
  }
  return origins;
}
