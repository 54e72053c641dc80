import { MIMEType } from 'node:util';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalidBody, mediaTypeRefused, type AppError } from '../../errors/app-error.js';
import { nestsDeeperThan, TOO_DEEP } from '../../lib/json-nesting.js';
import { prototypeKeyPath } from '../../lib/json-prototype-keys.js';
import { decodeUtf8, InvalidUtf8Error } from '../../lib/text.js';
import { prependRouteHook, takesBody } from '../route-hooks.js';

/** What a route's body may be when its schema does not list `consumes`. */
const DEFAULT_MEDIA_TYPES: readonly string[] = ['application/json'];

/** Charset names that mean UTF-8; any other is refused. */
const UTF8_NAMES = new Set(['utf-8', 'utf8']);

/** The media types a route reads: its schema's `consumes` (also shown in OpenAPI), else JSON. */
export function acceptedMediaTypes(request: FastifyRequest): readonly string[] {
  const consumes = (request.routeOptions.schema as { consumes?: string[] } | undefined)?.consumes;
  return consumes && consumes.length > 0 ? consumes : DEFAULT_MEDIA_TYPES;
}

/**
 * The 415 for a body the route cannot read. It names what the route reads (`accepted`, and
 * `Accept-Post` / `Accept-Patch` as RFC 5789 and the W3C LDP define them for those methods).
 */
export function unsupportedMediaType(request: FastifyRequest, reason: string, headers: Record<string, string> = {}): AppError {
  const accepted = [...acceptedMediaTypes(request)];
  const acceptHeader = request.method === 'POST' ? 'accept-post' : request.method === 'PATCH' ? 'accept-patch' : undefined;
  return mediaTypeRefused(reason, accepted, { ...headers, ...(acceptHeader ? { [acceptHeader]: accepted.join(', ') } : {}) });
}

/**
 * Every body is UTF-8 text, sent as it is: a body under a `Content-Encoding` other than
 * `identity` (gzip, br, ...) or declaring a charset other than UTF-8 is refused with 415
 * before it is read, and bytes that are not UTF-8 are a 400 naming the byte, never replaced
 * by U+FFFD. JSON is the only media type read unless a route adds its own (NDJSON on the
 * ingest and import routes); `text/plain` and the like are a 415 naming what the route reads.
 * A JSON body nested more than MAX_JSON_NESTING levels deep is a 400.
 */
export function registerBodyMediaRules(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = decodeUtf8(body as Buffer);
    } catch (error) {
      if (!(error instanceof InvalidUtf8Error)) throw error;
      done(invalidBody(`the body is not valid UTF-8 (at byte ${error.offset}); nothing was stored`), undefined);
      return;
    }
    parseJson(request, text, (error: Error | null, parsed?: unknown) => {
      if (error) return done(prototypeKeyRefusal(text) ?? error, undefined);
      if (nestsDeeperThan(parsed)) return done(invalidBody(`the body ${TOO_DEEP}; nothing was stored`), undefined);
      done(null, parsed);
    });
  });

  // Only a route that Fastify reads a body for runs the check: a GET or HEAD body is never parsed.
  app.addHook('onRoute', (route) => {
    if (takesBody(route)) prependRouteHook(route, 'preParsing', refuseUnreadableBody);
  });
}

/** Refuses, before it is read, a body under a Content-Encoding or declaring a charset the service does not read. */
function refuseUnreadableBody(request: FastifyRequest, _reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void): void {
  if (!hasBody(request)) return done(null, payload);
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  // biome-ignore lint/complexity/useOptionalChain: an empty header is no encoding; encoding?.split would refuse it
  if (encoding && encoding.split(',').some((coding) => coding.trim() !== 'identity')) {
    throw unsupportedMediaType(request, `Content-Encoding '${encoding}' is not supported: send the body uncompressed`, {
      'accept-encoding': 'identity',
    });
  }
  const charset = charsetOf(request.headers['content-type']);
  if (charset !== undefined && !UTF8_NAMES.has(charset.toLowerCase())) {
    throw unsupportedMediaType(request, `charset '${charset}' is not supported: bodies are UTF-8`);
  }
  done(null, payload);
}

/**
 * Fastify's parser refuses a key that could set an object's prototype with the words it uses for
 * malformed JSON; when the text is valid JSON, that key is why, and the answer names it.
 */
function prototypeKeyRefusal(text: string): AppError | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const path = prototypeKeyPath(parsed);
  if (path === undefined) return undefined;
  const key = path.endsWith('constructor.prototype') ? 'constructor.prototype' : '__proto__';
  return invalidBody(`the body has the key '${key}' (at '${path}'), which is refused: it could change an object's prototype; nothing was stored`);
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The charset parameter of a Content-Type; undefined when absent or when the header does not parse (Fastify answers 415 then). */
function charsetOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  try {
    return new MIMEType(contentType).params.get('charset') ?? undefined;
  } catch {
    return undefined;
  }
}
