import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import type { RateLimitSettings } from '../../config/operations.js';
import { tooManyRequests, type AppError } from '../../errors/app-error.js';
import { throttledWarning } from '../../lib/throttled-warning.js';
import { clientAddressKey } from './client-address.js';
import { JSON_CONTENT_TYPE } from '../json-content-type.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * `pending`: sent a credential not yet verified; `charged`: counted against a budget;
     * `operator`: verified operator, not limited.
     */
    rateLimitState: 'pending' | 'charged' | 'operator' | null;
  }
}

const WINDOW_MS = 60_000;
/** Keys the in-memory store keeps; past it the least recently used is forgotten (its window starts again). */
const MEMORY_KEYS = 100_000;
/** A Redis failure repeats on every request: it is logged at most once in this interval. */
const WARNING_INTERVAL_MS = 10_000;
const COMPANY_KEY = 'company:';
const RECORD_TOKEN_KEY = 'record-token:';
const ADDRESS_KEY = 'address:';

export interface RateLimitObserver {
  /** A request was served without being counted, because the store (Redis) failed or was too slow. */
  onStoreError?(error: Error): void;
}

export interface RateLimiting {
  /**
   * Registers, after authentication in a scope, the charge of the verified identity: a user's
   * request to its company, a record token's to the token itself. (The OpenAPI plugin documents the 429.)
   */
  limitByIdentity(scope: FastifyInstance): void;
  /** Registers, after operator authentication, that the operator is trusted and not limited. */
  exemptOperator(scope: FastifyInstance): void;
}

/** What a listener without rate limits registers (every limit off). */
export const NOT_RATE_LIMITED: RateLimiting = Object.freeze({ limitByIdentity: () => {}, exemptOperator: () => {} });

type RateCheck = Awaited<ReturnType<ReturnType<FastifyInstance['createRateLimit']>>>;
type CountedCheck = Extract<RateCheck, { isAllowed: false }>;

/**
 * Rate limits, counted by @fastify/rate-limit in fixed one-minute windows: in Redis, shared by
 * every process and replica, when `redis` is given (WRS_REDIS_URL); otherwise in each process's memory
 * (with N processes or replicas a client then gets up to N times the budget).
 * - a request with a verified company credential is charged to that company;
 * - a request with a record token is charged to that token (its `jti`) and never to its company,
 *   so a form link handed out cannot spend the budget of the company's own users;
 * - a request without a valid credential is charged to its client address: one without any
 *   credential before any work is done, one whose credential is refused when its answer is
 *   sent (a refused credential over the budget answers 429 instead of 401);
 * - the verified operator and routes with `config.rateLimit: false` are not limited.
 * When Redis fails or is slower than its timeout the request is served uncounted (fail open),
 * logged at most every few seconds and reported to `observer.onStoreError`.
 */
export async function registerRateLimiting(
  app: FastifyInstance,
  settings: RateLimitSettings,
  redis: AppContext['rateLimitRedis'],
  observer: RateLimitObserver = {},
): Promise<RateLimiting> {
  const companyLimited = settings.perCompanyPerMinute > 0;
  const recordTokenLimited = settings.perRecordTokenPerMinute > 0;
  const addressLimited = settings.perAddressPerMinute > 0;
  app.decorateRequest('rateLimitState', null);
  // With every limit off there is nothing to count: no hook runs at all, and Redis is not used.
  if (!companyLimited && !recordTokenLimited && !addressLimited) return NOT_RATE_LIMITED;

  if (redis) {
    const warnConnectionFailed = throttledWarning(app.log, 'rate limit Redis connection failed', WARNING_INTERVAL_MS);
    // Not sooner: compiling the routes' schemas holds the event loop long enough to time out a connection under way.
    app.addHook('onReady', () => redis.connect(warnConnectionFailed));
    app.addHook('onClose', async () => redis.close());
  }
  // The library counts; the hooks below are ours, not its per-route ones: a refused credential is
  // charged when its answer is sent, the 429 is the service's own error, and a failed count must
  // be seen to be logged and reported. The key is the verified identity, else the client address.
  await app.register(fastifyRateLimit, {
    global: false,
    timeWindow: WINDOW_MS,
    keyGenerator: (request) => keyOf(request),
    max: (_request, key) => maxOf(key, settings),
    // Failures are caught below, to be logged and counted before the request goes on.
    skipOnError: false,
    ...(redis ? { redis: redis.client, nameSpace: redis.keyPrefix } : { cache: MEMORY_KEYS }),
  });
  const check = app.createRateLimit();
  const warnStoreFailed = throttledWarning(app.log, 'rate limit store failed: requests are served uncounted', WARNING_INTERVAL_MS);

  /** Counts the request against its budget; answers the refusal when it is over, else null. */
  async function charge(request: FastifyRequest, reply: FastifyReply): Promise<AppError | null> {
    let result: RateCheck;
    try {
      result = await check(request);
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      warnStoreFailed(failure);
      observer.onStoreError?.(failure);
      return null;
    }
    if (result.isAllowed) return null;
    setRateLimitHeaders(reply, result);
    return result.isExceeded ? rateLimited(result) : null;
  }

  // Hooks that run on every request call `done` rather than being async (see app.ts).
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.rateLimit === false) return done();
    if (request.headers.authorization !== undefined) {
      request.rateLimitState = 'pending';
      return done();
    }
    request.rateLimitState = 'charged';
    if (!addressLimited) return done();
    charge(request, reply).then((refusal) => done(refusal ?? undefined), done);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.rateLimitState !== 'pending') return done(null, payload);
    request.rateLimitState = 'charged';
    if (!addressLimited) return done(null, payload);
    charge(request, reply).then((refusal) => {
      if (!refusal) return done(null, payload);
      if (payload && typeof (payload as { destroy?: unknown }).destroy === 'function') {
        (payload as { destroy(): void }).destroy();
      }
      reply.removeHeader('www-authenticate');
      reply.code(refusal.status).headers(refusal.headers).header('content-type', JSON_CONTENT_TYPE);
      done(null, JSON.stringify({ message: refusal.message, code: refusal.code }));
    }, done);
  });

  return {
    limitByIdentity(scope) {
      scope.addHook('onRequest', (request, reply, done) => {
        if (request.rateLimitState === null || !request.identity) return done();
        request.rateLimitState = 'charged';
        if (!(request.identity.kind === 'record' ? recordTokenLimited : companyLimited)) return done();
        charge(request, reply).then((refusal) => done(refusal ?? undefined), done);
      });
    },
    exemptOperator(scope) {
      scope.addHook('onRequest', (request, _reply, done) => {
        if (request.rateLimitState === 'pending') request.rateLimitState = 'operator';
        done();
      });
    },
  };
}

function keyOf(request: FastifyRequest): string {
  const identity = request.identity;
  if (!identity) return `${ADDRESS_KEY}${clientAddressKey(request.ip)}`;
  return identity.kind === 'record' ? `${RECORD_TOKEN_KEY}${identity.tokenKey}` : `${COMPANY_KEY}${identity.companyId}`;
}

function maxOf(key: string, settings: RateLimitSettings): number {
  if (key.startsWith(COMPANY_KEY)) return settings.perCompanyPerMinute;
  if (key.startsWith(RECORD_TOKEN_KEY)) return settings.perRecordTokenPerMinute;
  return settings.perAddressPerMinute;
}

const SUBJECTS: ReadonlyArray<readonly [string, string]> = [
  [COMPANY_KEY, 'this company'],
  [RECORD_TOKEN_KEY, 'this record token'],
  [ADDRESS_KEY, 'this client address'],
];

/** The IETF draft RateLimit header fields (draft-ietf-httpapi-ratelimit-headers). */
function setRateLimitHeaders(reply: FastifyReply, result: CountedCheck): void {
  reply.headers({
    'ratelimit-limit': String(result.max),
    'ratelimit-remaining': String(result.remaining),
    'ratelimit-reset': String(result.ttlInSeconds),
    'ratelimit-policy': `${result.max};w=${WINDOW_MS / 1000}`,
  });
}

function rateLimited(result: CountedCheck): AppError {
  const subject = SUBJECTS.find(([prefix]) => result.key.startsWith(prefix))?.[1] ?? 'this client';
  const retryAfterSeconds = Math.max(1, result.ttlInSeconds);
  return tooManyRequests(`too many requests for ${subject}: at most ${result.max} a minute; retry in ${retryAfterSeconds} s`, retryAfterSeconds);
}
