import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimitSettings } from '../../config/operations.js';
import { tooManyRequests, type AppError } from '../../errors/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { RateLimiter, type RateDecision } from '../../lib/rate-limiter.js';
import { clientAddressKey } from './client-address.js';
import { JSON_CONTENT_TYPE } from '../json-content-type.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false` exempts the route from rate limiting (health checks). */
    rateLimit?: boolean;
  }
  interface FastifyRequest {
    /**
     * `pending`: sent a credential not yet verified; `charged`: counted against a budget;
     * `operator`: verified operator, not limited.
     */
    rateLimitState: 'pending' | 'charged' | 'operator' | null;
  }
}

const SWEEP_INTERVAL_MS = 60_000;

export interface RateLimiting {
  /** Registers, after authentication in a scope, the charge of the verified identity's company. */
  limitByCompany(scope: FastifyInstance): void;
  /** Registers, after operator authentication, that the operator is trusted and not limited. */
  exemptOperator(scope: FastifyInstance): void;
}

/**
 * Rate limits, in memory per process (with N processes or replicas a client gets up to N
 * times the budget):
 * - a request with a verified company credential is charged to that company;
 * - a request without a valid credential is charged to its client address: one without any
 *   credential before any work is done, one whose credential is refused when its answer is
 *   sent (a refused credential over the budget answers 429 instead of 401);
 * - the verified operator and routes with `config.rateLimit: false` are not limited.
 */
export function registerRateLimiting(app: FastifyInstance, settings: RateLimitSettings, clock: Clock): RateLimiting {
  const companies = settings.perCompanyPerMinute > 0 ? new RateLimiter(settings.perCompanyPerMinute, clock) : null;
  const addresses = settings.perAddressPerMinute > 0 ? new RateLimiter(settings.perAddressPerMinute, clock) : null;
  app.decorateRequest('rateLimitState', null);

  if (companies || addresses) {
    const sweeper = setInterval(() => {
      companies?.sweep();
      addresses?.sweep();
    }, SWEEP_INTERVAL_MS).unref();
    app.addHook('onClose', async () => clearInterval(sweeper));
  }

  // With both limits off there is nothing to count: no hook runs at all.
  if (!companies && !addresses) return { limitByCompany: () => {}, exemptOperator: () => {} };

  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.rateLimit === false) return done();
    if (request.headers.authorization !== undefined) {
      request.rateLimitState = 'pending';
      return done();
    }
    request.rateLimitState = 'charged';
    if (addresses) enforce(reply, addresses.take(addressKey(request)), 'this client address');
    done();
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.rateLimitState !== 'pending') return payload;
    request.rateLimitState = 'charged';
    if (!addresses) return payload;
    const decision = addresses.take(addressKey(request));
    setRateLimitHeaders(reply, decision);
    if (decision.allowed) return payload;
    if (payload && typeof (payload as { destroy?: unknown }).destroy === 'function') {
      (payload as { destroy(): void }).destroy();
    }
    const error = rateLimited(decision, 'this client address');
    reply.removeHeader('www-authenticate');
    reply.code(error.status).headers(error.headers).header('content-type', JSON_CONTENT_TYPE);
    return JSON.stringify({ message: error.message, code: error.code });
  });

  return {
    limitByCompany(scope) {
      scope.addHook('onRequest', (request, reply, done) => {
        if (request.rateLimitState === null || !request.identity) return done();
        request.rateLimitState = 'charged';
        if (companies) enforce(reply, companies.take(`company:${request.identity.companyId}`), 'this company');
        done();
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

function addressKey(request: FastifyRequest): string {
  return `address:${clientAddressKey(request.ip)}`;
}

function enforce(reply: FastifyReply, decision: RateDecision, subject: string): void {
  setRateLimitHeaders(reply, decision);
  if (!decision.allowed) throw rateLimited(decision, subject);
}

/** The IETF draft RateLimit header fields (draft-ietf-httpapi-ratelimit-headers). */
function setRateLimitHeaders(reply: FastifyReply, decision: RateDecision): void {
  reply.headers({
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(decision.remaining),
    'ratelimit-reset': String(decision.resetSeconds),
    'ratelimit-policy': `${decision.limit};w=60`,
  });
}

function rateLimited(decision: RateDecision, subject: string): AppError {
  return tooManyRequests(
    `too many requests for ${subject}: at most ${decision.limit} a minute; retry in ${decision.retryAfterSeconds} s`,
    decision.retryAfterSeconds,
  );
}
