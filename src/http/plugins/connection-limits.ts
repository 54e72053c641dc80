import type { Socket } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { ConnectionSettings } from '../../config/network.js';
import { clientAddressKey } from './client-address.js';

const REFUSED_BODY = JSON.stringify({
  message: 'too many open connections from this client address; close some and retry',
  code: 'service_unavailable',
});
const REFUSED =
  'HTTP/1.1 503 Service Unavailable\r\n' +
  'Content-Type: application/json; charset=utf-8\r\n' +
  `Content-Length: ${Buffer.byteLength(REFUSED_BODY)}\r\n` +
  'Retry-After: 1\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n' +
  REFUSED_BODY;

/**
 * Bounds the connections one process keeps open, so that one client cannot hold every socket:
 * - at most `max` in all (node's server.maxConnections closes the rest at once);
 * - at most `perAddress` from one client address (IPv6 by /64): a connection beyond that is
 *   answered 503 and closed before anything of it is read. Behind a trusted proxy every
 *   connection comes from the balancer, so the share is not applied there (the balancer
 *   limits its own clients);
 * - a request answered before its body has arrived (a 401 from the headers, a 413 from its
 *   declared length) gets `Connection: close`, and its socket is closed once the answer is
 *   sent instead of reading the rest of a trickling body until the request timeout.
 */
export function registerConnectionLimits(app: FastifyInstance, settings: ConnectionSettings, trustProxy: boolean): void {
  if (settings.max > 0) app.server.maxConnections = settings.max;
  if (settings.perAddress > 0 && !trustProxy) limitPerAddress(app, settings.perAddress);

  // A body already received but not yet parsed completes within a turn of the event loop, so
  // only a body still on its way gets `Connection: close` (node then ends the socket once the
  // answer is written). A request that declares no body is not complete yet when a handler
  // answers it without awaiting anything (llhttp marks it so just after), and has nothing to wait for.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.raw.complete !== false || !declaresBody(request.headers)) return done(null, payload);
    setImmediate(() => {
      if (!request.raw.complete) reply.header('connection', 'close');
      done(null, payload);
    });
  });
}

/** Without Transfer-Encoding or a Content-Length above 0, an HTTP/1.1 request has no body (RFC 9112, section 6.3). */
function declaresBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function limitPerAddress(app: FastifyInstance, perAddress: number): void {
  const open = new Map<string, number>();
  app.server.on('connection', (socket: Socket) => {
    if (socket.remoteAddress === undefined) return;
    const key = clientAddressKey(socket.remoteAddress);
    const count = open.get(key) ?? 0;
    if (count >= perAddress) {
      // Written at once, then closed: nothing this connection sends is parsed or served.
      socket.write(REFUSED);
      socket.destroy();
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}
