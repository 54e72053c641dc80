import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { BrowserSettings } from '../../config/operations.js';
import { uuidv7 } from '../../lib/ids.js';

const INCOMING_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** A request's id (Fastify's `genReqId`): the caller's `x-request-id` when it is a plausible one, else a new UUIDv7. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && INCOMING_REQUEST_ID.test(incoming) ? incoming : uuidv7();
}

/**
 * The headers every answer carries: its request's id (`x-request-id`, set as the request comes,
 * so that an answer made by any later hook has it), and those that keep a browser from sniffing,
 * framing or caching API responses and from leaking URLs in Referer. Nothing names the server
 * or its version.
 */
export function registerResponseHeaders(app: FastifyInstance, settings: BrowserSettings): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  const headers = Object.entries(securityHeaders(settings));
  app.addHook('onSend', (_request, reply, payload, done) => {
    for (const [name, value] of headers) {
      // The docs page and the web pages set their own, wider policy.
      if (name !== 'content-security-policy' || !reply.hasHeader(name)) reply.header(name, value);
    }
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    reply.removeHeader('server');
    reply.removeHeader('x-powered-by');
    done(null, payload);
  });
}

/** What both web page policies hold: scripts, styles, images, fonts and requests of this origin only, never framed. */
const SAME_ORIGIN_ONLY: Record<string, string> = {
  'default-src': "'self'",
  'script-src': "'self'",
  'img-src': "'self' data:",
  'font-src': "'self'",
  'connect-src': "'self'",
  'object-src': "'none'",
  'form-action': "'self'",
  'frame-ancestors': "'none'",
};
const policy = (directives: Record<string, string>): string =>
  Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources}`)
    .join('; ');

/**
 * The docs page (plugins/docs-page.ts) loads its scripts, styles and the OpenAPI document from
 * the service only; Swagger UI sets inline styles and draws icons from data: URLs. The API's
 * own answers keep `default-src 'none'`.
 */
export const DOCS_CONTENT_SECURITY_POLICY = policy({ ...SAME_ORIGIN_ONLY, 'base-uri': "'self'", 'style-src': "'self' 'unsafe-inline'" });

/** The console and the hosted record form (plugins/web-pages.ts): no inline style either, and no `<base>`. */
export const WEB_CONTENT_SECURITY_POLICY = policy({ ...SAME_ORIGIN_ONLY, 'base-uri': "'none'", 'style-src': "'self'" });

/**
 * The operator page (plugins/web-pages.ts): as the console, but pdfme's template designer draws
 * with Ant Design, which writes its style sheets into the page at run time (CSS-in-JS, with no
 * way to hand it a nonce through pdfme), so inline styles are allowed here and on no other page.
 * Scripts stay this origin's files only.
 */
export const OPERATOR_CONTENT_SECURITY_POLICY = policy({ ...SAME_ORIGIN_ONLY, 'base-uri': "'none'", 'style-src': "'self' 'unsafe-inline'" });

/** The headers themselves, also for answers that Fastify makes before any hook runs. */
export function securityHeaders(settings: BrowserSettings): Record<string, string> {
  const headers: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  };
  // HSTS only when the operator says the service is reached over HTTPS: sent over plain HTTP
  // from a development box it would pin the host name to HTTPS in the browser.
  if (settings.hstsMaxAgeSeconds > 0) {
    headers['strict-transport-security'] = `max-age=${settings.hstsMaxAgeSeconds}; includeSubDomains`;
  }
  return headers;
}
