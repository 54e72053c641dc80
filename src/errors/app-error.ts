/**
 * The status of every code: one each, but for the exceptions in SECOND_STATUS. Every AppError is
 * built by a constructor of this catalogue (src/errors/), which fixes status and code together.
 */
export const ERROR_STATUS = {
  invalid_query: 400,
  invalid_body: 400,
  invalid_path: 400,
  validation_failed: 400,
  template_not_found: 400,
  invalid_header: 400,
  invalid_export_file: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  idempotency_key_in_use: 409,
  webhook_limit_reached: 409,
  feed_cursor_expired: 410,
  company_has_data: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal: 500,
  provider_error: 502,
  service_unavailable: 503,
  provider_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The codes answered with a second status as well, and why the code is kept for it. */
export const SECOND_STATUS: Partial<Record<ErrorCode, { readonly status: number; readonly reason: string }>> = {
  rate_limited: {
    status: 503,
    reason: 'Lob rate limiting the account: the contract says "provider rate limit 503 with Retry-After", and a client retries both alike',
  },
  validation_failed: {
    status: 422,
    reason: 'a stored template cannot render a record (or its data is over the render input cap): the body was valid, the pair is not',
  },
};

export interface AppErrorOptions {
  /** Extra body fields, e.g. `invalid_params` or the record validation lists. */
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * The one error model. Every non-2xx answer is an AppError rendered by the HTTP error handler
 * as `{message, code, ...details}`; `code` values are stable and documented in the contract.
 * Built only by the named constructors below, never ad hoc (test/foundation/error-catalogue.test.ts).
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(status: number, code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
  }
}

export const invalidQuery = (message: string, params: string[]): AppError =>
  new AppError(400, 'invalid_query', message, { details: { invalid_params: params } });

export const invalidBody = (message: string, details?: Record<string, unknown>): AppError =>
  new AppError(400, 'invalid_body', message, details ? { details } : {});

/** `400`: a request header's value cannot be used; `invalid_header` names it. */
export const invalidHeader = (message: string, header: string): AppError =>
  new AppError(400, 'invalid_header', message, { details: { invalid_header: header } });

export const notFound = (message: string): AppError => new AppError(404, 'not_found', message);

/** `405`: the path exists but not with this method; `Allow` lists the methods it has. */
export const methodNotAllowed = (method: string, path: string, allowed: readonly string[]): AppError =>
  new AppError(405, 'method_not_allowed', `${method} is not allowed on ${path}; it allows ${allowed.join(', ')}`, {
    headers: { allow: allowed.join(', ') },
  });

export const unauthorized = (message: string): AppError => new AppError(401, 'unauthorized', message, { headers: { 'www-authenticate': 'Bearer' } });

export const forbidden = (message: string): AppError => new AppError(403, 'forbidden', message);

export const invalidPath = (message: string): AppError => new AppError(400, 'invalid_path', message);

/** `409`: the first request with this Idempotency-Key is still running; retry after a moment. */
export const idempotencyKeyInUse = (message: string, retryAfterSeconds: number): AppError =>
  new AppError(409, 'idempotency_key_in_use', message, { headers: { 'retry-after': String(retryAfterSeconds) } });

/** `409`: the company has as many webhooks as it may; `limit` says how many. */
export const webhookLimitReached = (limit: number): AppError =>
  new AppError(
    409,
    'webhook_limit_reached',
    `the company already has ${limit} webhooks, the most it may have (WRS_WEBHOOK_MAX_PER_COMPANY); delete one to add another`,
    {
      details: { limit },
    },
  );

/** `422`: this Idempotency-Key was used with another request (another body or path). */
export const idempotencyKeyReused = (message: string): AppError => new AppError(422, 'idempotency_key_reused', message);
/**
 * `410`: a change-feed cursor from before events that retention has since removed: reading on
 * from it would skip them silently.
 */
export const feedCursorExpired = (message: string): AppError => new AppError(410, 'feed_cursor_expired', message);

/** `412`: a condition of the request (If-Match) does not hold; nothing was changed. */
export const preconditionFailed = (message: string): AppError => new AppError(412, 'precondition_failed', message);

export const templateNotFound = (message: string): AppError => new AppError(400, 'template_not_found', message);

/** `400`: a record breaks its type; `details` are the CreateRecordValidationError lists. */
export const recordInvalid = (message: string, details: Record<string, unknown>): AppError => new AppError(400, 'validation_failed', message, { details });

/** `422` (SECOND_STATUS): a template cannot render this record. */
export const cannotRender = (message: string, details?: Record<string, unknown>): AppError =>
  new AppError(422, 'validation_failed', message, details ? { details } : {});

export const payloadTooLarge = (message: string): AppError => new AppError(413, 'payload_too_large', message);

/** `415`: names what the route reads, in `accepted` and in `headers` (e.g. `Accept-Post`). */
export const mediaTypeRefused = (reason: string, accepted: string[], headers: Record<string, string>): AppError =>
  new AppError(415, 'unsupported_media_type', `${reason}; this route reads ${accepted.join(', ')}`, {
    details: { accepted },
    headers,
  });

/** `429`: a budget of this service is spent. */
export const tooManyRequests = (message: string, retryAfterSeconds: number): AppError =>
  new AppError(429, 'rate_limited', message, { headers: { 'retry-after': String(retryAfterSeconds) } });

/** The 500 of a bug: the message never says more; `cause` goes to the log. */
export const internalError = (cause: unknown): AppError => new AppError(500, 'internal', 'internal error', { cause });

export const serviceUnavailable = (message: string, retryAfterSeconds?: number): AppError =>
  new AppError(503, 'service_unavailable', message, {
    headers: retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) },
  });

/** `502`: a provider (Lob) refused, failed, or answered something unreadable. */
export const providerError = (message: string, cause?: unknown): AppError => new AppError(502, 'provider_error', message, { cause });

/** `503` (SECOND_STATUS): the provider is rate limiting the account. */
export const providerRateLimited = (message: string, retryAfterSeconds: number): AppError =>
  new AppError(503, 'rate_limited', message, { headers: { 'retry-after': String(retryAfterSeconds) } });

/** `504`: a provider (Lob, the PDF renderer) did not answer in time. */
export const providerTimeout = (message: string, cause?: unknown): AppError => new AppError(504, 'provider_timeout', message, { cause });

/** A company export file that cannot be imported as it is (format, version, checksum, counts or a line). */
export const exportFileRefused = (message: string): AppError => new AppError(400, 'invalid_export_file', message);

/** An import into a company that already holds data: an import only ever fills an empty company. */
export const companyHasData = (message: string, tables: string[]): AppError => new AppError(409, 'company_has_data', message, { details: { tables } });
