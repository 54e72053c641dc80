/**
 * The one error model. Every non-2xx answer is an AppError rendered by the HTTP error handler
 * as `{message, code, ...details}`; `code` values are stable and documented in the contract.
 */
export type ErrorCode =
  | 'invalid_query'
  | 'invalid_body'
  | 'invalid_path'
  | 'validation_failed'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'template_not_found'
  | 'provider_error'
  | 'provider_timeout'
  | 'service_unavailable'
  | 'internal';

export interface AppErrorOptions {
  /** Extra body fields, e.g. `invalid_params` or the record validation lists. */
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
  cause?: unknown;
}

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

export const notFound = (message: string): AppError => new AppError(404, 'not_found', message);

/** `405`: the path exists but not with this method; `Allow` lists the methods it has. */
export const methodNotAllowed = (method: string, path: string, allowed: readonly string[]): AppError =>
  new AppError(405, 'method_not_allowed', `${method} is not allowed on ${path}; it allows ${allowed.join(', ')}`, {
    headers: { allow: allowed.join(', ') },
  });

export const unauthorized = (message: string): AppError =>
  new AppError(401, 'unauthorized', message, { headers: { 'www-authenticate': 'Bearer' } });

export const forbidden = (message: string): AppError => new AppError(403, 'forbidden', message);

export const payloadTooLarge = (message: string): AppError => new AppError(413, 'payload_too_large', message);

export const serviceUnavailable = (message: string, retryAfterSeconds?: number): AppError =>
  new AppError(503, 'service_unavailable', message, {
    headers: retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) },
  });
