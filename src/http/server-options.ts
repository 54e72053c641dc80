import type { ServerSettings } from '../config/operations.js';

/**
 * Fastify and node:http timeouts. `requestTimeout` bounds receiving a whole request (a long
 * streaming ingest included), `headersTimeout` bounds the headers alone (slow-header clients),
 * `connectionTimeout` closes a socket silent both ways, `keepAliveTimeout` an idle keep-alive
 * socket. Node checks the first two on a timer; it runs often enough for the bound to hold
 * within a quarter of the headers timeout.
 */
export function serverTimeoutOptions(settings: ServerSettings) {
  return {
    requestTimeout: settings.requestTimeoutMs,
    connectionTimeout: settings.connectionTimeoutMs,
    keepAliveTimeout: settings.keepAliveTimeoutMs,
    http: {
      requestTimeout: settings.requestTimeoutMs,
      headersTimeout: settings.headersTimeoutMs,
      connectionsCheckingInterval: Math.max(100, Math.min(5000, Math.floor(settings.headersTimeoutMs / 4))),
    },
  };
}
