import type { FastifyInstance } from 'fastify';

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const ALLOWED_HEADERS = 'authorization, content-type, x-request-id, if-match, if-none-match';
const EXPOSED_HEADERS = [
  'x-request-id',
  'retry-after',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'ratelimit-policy',
  'location',
  'allow',
  'link',
  'deprecation',
  'content-disposition',
  'etag',
].join(', ');
const PREFLIGHT_MAX_AGE_S = '600';

/**
 * CORS is off unless origins are configured: then only those exact origins get
 * `Access-Control-Allow-Origin`, preflights are answered here (204), and the bearer
 * `Authorization` header may be sent. No cookies are used, so credentials mode is not allowed.
 */
export function registerCors(app: FastifyInstance, origins: readonly string[]): void {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (origin === undefined) return;
    reply.header('vary', 'Origin');
    if (!allowed.has(origin)) return;
    reply.header('access-control-allow-origin', origin);
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      reply
        .code(204)
        .headers({
          'access-control-allow-methods': ALLOWED_METHODS,
          'access-control-allow-headers': ALLOWED_HEADERS,
          'access-control-max-age': PREFLIGHT_MAX_AGE_S,
        })
        .send();
      return reply;
    }
    reply.header('access-control-expose-headers', EXPOSED_HEADERS);
  });
}
