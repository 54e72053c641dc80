import type { FastifyContextConfig } from 'fastify';
import { ErrorResponse, ERROR_DESCRIPTIONS } from './errors.js';

/**
 * The answers of the credential and the rate limits, which no route declares alike by hand:
 * they depend only on who may call the route (the path prefix, `allowRecordToken`) and on
 * whether it is counted (`rateLimit`). The OpenAPI plugin adds them to every operation.
 */

const WWW_AUTHENTICATE = {
  'www-authenticate': { type: 'string', description: 'Bearer (RFC 6750): the route takes a bearer token' },
};

const RETRY_AFTER = {
  'retry-after': { type: 'integer', minimum: 1, description: 'seconds to wait before retrying' },
};

/** The IETF RateLimit header fields, as the rate limits set them on the answers they count. */
const RATE_LIMIT_HEADERS = {
  'ratelimit-limit': { type: 'integer', description: 'the requests the budget allows per window (on a refusal by the request rate)' },
  'ratelimit-remaining': { type: 'integer', description: 'the requests left in this window: 0 on a refusal' },
  'ratelimit-reset': { type: 'integer', description: 'seconds until the window ends and the budget is full again' },
  'ratelimit-policy': { type: 'string', description: 'the budget and its window, e.g. 600;w=60' },
};

const USER_UNAUTHORIZED = 'unauthorized: the bearer JWT or record token is missing, malformed, badly signed, expired or revoked';
const OPERATOR_UNAUTHORIZED = 'unauthorized: the operator token (WRS_ADMIN_TOKEN) is missing or wrong';

const FORBIDDEN: Record<'none' | 'own-record' | 'own-record-type', string> = {
  none: 'forbidden: a record token may not call this operation; only a company user may',
  'own-record': 'forbidden: a record token may call this for its own record only',
  'own-record-type': "forbidden: a record token may read its own record's type only",
};

const USER_RATE_LIMITED =
  'rate_limited: over the request rate of the company (a user JWT), of the record token, or of the client ' +
  'address (no valid credential); Retry-After says when to retry, the RateLimit headers give the budget';
const OPERATOR_RATE_LIMITED =
  'rate_limited: a request without a valid operator token is counted against its client address and refused ' +
  'over that budget (the operator itself is not limited); Retry-After says when to retry';

type Responses = Record<string, unknown>;
type ResponseObject = { description?: string; headers?: Record<string, unknown>; content?: Record<string, unknown> };

/**
 * The route's responses with 401 (every route that takes a credential), 403 (every /v1 route:
 * a record token can be refused on each), and 429 (every route the rate limits count), each
 * with the headers it carries. A description a route gave itself is kept.
 */
export function withAccessAnswers(url: string, config: FastifyContextConfig | undefined, responses: Responses | undefined): Responses | undefined {
  const operator = url.startsWith('/admin/');
  if (!operator && !url.startsWith('/v1/')) return responses;
  const added: Responses = {
    401: answer(responses?.[401], operator ? OPERATOR_UNAUTHORIZED : USER_UNAUTHORIZED, 401, WWW_AUTHENTICATE),
  };
  if (!operator) added[403] = answer(responses?.[403], FORBIDDEN[recordTokenAccess(config)], 403, {});
  if (config?.rateLimit !== false) {
    added[429] = answer(responses?.[429], operator ? OPERATOR_RATE_LIMITED : USER_RATE_LIMITED, 429, { ...RETRY_AFTER, ...RATE_LIMIT_HEADERS });
  }
  return { ...responses, ...added };
}

function recordTokenAccess(config: FastifyContextConfig | undefined): keyof typeof FORBIDDEN {
  const allowed = config?.allowRecordToken;
  if (allowed === 'own-record-type') return 'own-record-type';
  return allowed ? 'own-record' : 'none';
}

// Written with its media type: a route that produces another one (an event stream, NDJSON)
// still answers its errors as JSON.
function answer(declared: unknown, description: string, status: number, headers: Record<string, unknown>): ResponseObject {
  const own = declared as ResponseObject | undefined;
  const ownDescription = own?.description !== undefined && own.description !== ERROR_DESCRIPTIONS[status] ? own.description : undefined;
  return {
    description: ownDescription ?? description,
    headers: { ...own?.headers, ...headers },
    content: { 'application/json': { schema: ErrorResponse } },
  };
}
