import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, internalError, invalidBody, methodNotAllowed, notFound, payloadTooLarge, serviceUnavailable } from '../errors/app-error.js';
import { unsupportedMediaType } from './plugins/body-media.js';
import { allowedMethods } from './allowed-methods.js';
import { bodyValidationError, queryValidationError } from './validation-errors.js';

/** Fastify's own error codes, mapped onto the service's error model. */
const FASTIFY_ERRORS: Record<string, (error: FastifyError, request: FastifyRequest) => AppError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => payloadTooLarge('request body is too large'),
  FST_ERR_CTP_INVALID_JSON_BODY: (error) => invalidBody(`malformed JSON body: ${error.message}`),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => invalidBody('request body is empty; send a JSON object'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (_error, request) => {
    const contentType = request.headers['content-type'];
    return unsupportedMediaType(
      request,
      contentType === undefined ? 'the request has a body but no Content-Type' : `unsupported content type '${contentType.slice(0, 200)}'`,
    );
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => invalidBody('Content-Length does not match the body'),
};

/** Tells a database that cannot serve right now (503) from a failure of the request (the database's own reading). */
export type UnavailabilityOf = (error: unknown) => 'unreachable' | 'busy' | null;

/** Renders every error as `{message, code, ...}`; a 5xx never shows internals. */
export function registerErrorHandling(app: FastifyInstance, unavailabilityOf: UnavailabilityOf): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (clientWentAway(error, request)) {
      // Nobody is left to answer, and nothing failed on our side: no stack, not an error.
      request.log.info({ code: error.code }, 'the client closed the connection before the request was read');
      return sendError(reply, invalidBody('the client closed the connection before the request was read'), request);
    }
    const appError = toAppError(error, request, unavailabilityOf);
    if (appError.status >= 500) {
      request.log.error({ err: error }, 'request failed');
    }
    return sendError(reply, appError, request);
  });

  // A path that exists with other methods is a 405 naming them; anything else names nothing. A
  // route of this very method that finds nothing (a static file that is not there) is a 404.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = allowedMethods(app, path);
    const error =
      allowed.length > 0 && !allowed.includes(request.method)
        ? methodNotAllowed(request.method, path, allowed)
        : notFound(`no route ${request.method} ${path}`);
    return sendError(reply, error, request);
  });
}

/**
 * Longest raw (still percent-encoded) path parameter the router takes. Route schemas set the
 * real limits on the decoded values (IDs of up to 200 characters, which encoded may take nine
 * times as many); a longer segment cannot name anything and answers 404 below.
 */
export const MAX_PATH_PARAM_LENGTH = 2048;

/**
 * Fastify refuses some paths before routing, without hooks or the error handler: a segment
 * that is not valid percent-encoding, or one over MAX_PATH_PARAM_LENGTH. Such a path names
 * nothing: it gets the 404 of any unknown path, with the headers the hooks would have added.
 */
export function frameworkErrorHandler(headers: Record<string, string>) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    reply.headers({ ...headers, 'cache-control': 'no-store', 'x-request-id': request.id });
    const path = (request.raw.url ?? '').split('?')[0]!;
    if (error.code === 'FST_ERR_BAD_URL') {
      sendError(reply, notFound(`no route ${request.method} ${path}: the path is not valid percent-encoding`), request);
    } else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      sendError(reply, notFound(`no route ${request.method} ${path.slice(0, 200)}...: a path segment is too long`), request);
    } else {
      request.log.error({ err: error }, 'request failed before routing');
      sendError(reply, internalError(error), request);
    }
  };
}

export function sendError(reply: FastifyReply, error: AppError, request: FastifyRequest): FastifyReply {
  const body: Record<string, unknown> = { message: error.message, code: error.code, ...error.details };
  if (error.status >= 500) body.request_id = request.id;
  return reply.code(error.status).headers(error.headers).send(body);
}

function toAppError(error: FastifyError, request: FastifyRequest, unavailabilityOf: UnavailabilityOf): AppError {
  if (error instanceof AppError) return error;
  if (error.validation) {
    if (error.validationContext === 'querystring') {
      const schema = request.routeOptions.schema?.querystring as { properties?: Record<string, unknown> } | undefined;
      return queryValidationError(error.validation, (request.query ?? {}) as Record<string, unknown>, new Set(Object.keys(schema?.properties ?? {})));
    }
    if (error.validationContext === 'params') return notFound('no such resource');
    return bodyValidationError(error.validation, error.validationContext === 'headers' ? 'headers' : 'body');
  }
  const unavailable = unavailabilityOf(error);
  if (unavailable === 'busy') return serviceUnavailable('the database is busy; retry shortly', 1);
  if (unavailable === 'unreachable') return serviceUnavailable('the database is unreachable; retry shortly', 1);
  if (isFileServerRefusal(error)) return notFound(`no route ${request.method} ${request.url.split('?')[0]!}`);
  const mapped = error.code ? FASTIFY_ERRORS[error.code] : undefined;
  if (mapped) return mapped(error, request);
  const status = error.statusCode ?? 500;
  if (status === 413) return payloadTooLarge('request body is too large');
  if (status >= 400 && status < 500) return invalidBody(error.message);
  return internalError(error);
}

/** The client closed its connection while its request was being read (Node's `aborted`). */
function clientWentAway(error: FastifyError, request: FastifyRequest): boolean {
  return error.code === 'ECONNRESET' && request.raw.errored === error;
}

/**
 * The static file server (`@fastify/send`, under `/assets/` and the docs page) refuses a path
 * that climbs out of its folder, names a dotfile or does not decode, with an `http-errors`
 * 400 or 403 of its own. No file has such a name: the answer is the 404 of any unknown path.
 */
function isFileServerRefusal(error: FastifyError): boolean {
  const { status, expose } = error as FastifyError & { status?: unknown; expose?: unknown };
  return error.code === undefined && typeof expose === 'boolean' && (status === 400 || status === 403);
}
