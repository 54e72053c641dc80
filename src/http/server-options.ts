import type { Socket } from 'node:net';
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
    clientErrorHandler,
  };
}

const CLIENT_ERRORS: Record<string, { status: string; code: string; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: '408 Request Timeout', code: 'request_timeout', message: 'the request did not arrive in time' },
  HPE_HEADER_OVERFLOW: { status: '431 Request Header Fields Too Large', code: 'headers_too_large', message: 'the request headers are too large' },
};
const MALFORMED = { status: '400 Bad Request', code: 'bad_request', message: 'malformed HTTP request' };

/**
 * Answers what fails before Fastify sees a request (a timeout while receiving it, headers too
 * large, malformed HTTP) with the service's `{message, code}` body and security headers, then
 * closes the connection.
 */
function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answer = (error.code && CLIENT_ERRORS[error.code]) || MALFORMED;
  const body = JSON.stringify({ message: answer.message, code: answer.code });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${answer.status}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}
