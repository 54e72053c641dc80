import type { Socket } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { ConnectionSettings } from '../../config/network.js';
import { serviceUnavailable, tooManyRequests } from '../../errors/app-error.js';
import { createKeyedShares } from '../../lib/keyed-shares.js';
import { whenResponseCloses } from '../response-closed.js';
import { clientAddressKey } from './client-address.js';

// What the service does with its connections: it bounds how many it keeps open (in all and per
// client address), ends a connection whose request is answered before its body has arrived, and,
// once it starts closing, refuses new requests and ends each connection with its answer.

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
 *   connection comes from the balancer, which keeps its connections open for many clients: the
 *   share then bounds the requests (streams included) open at once per forwarded client
 *   address, and one more is answered 429 without closing the balancer's connection;
 * - a request answered before its body has arrived (a 401 from the headers, a 413 from its
 *   declared length) gets `Connection: close`, and its socket is closed once the answer is
 *   sent instead of reading the rest of a trickling body until the request timeout.
 */
export function registerConnectionLimits(app: FastifyInstance, settings: ConnectionSettings, trustProxy: boolean): void {
  if (settings.max > 0) app.server.maxConnections = settings.max;
  if (settings.perAddress > 0) {
    if (trustProxy) limitOpenRequestsPerForwardedAddress(app, settings.perAddress);
    else limitConnectionsPerAddress(app, settings.perAddress);
  }

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

/** At most `perAddress` connections open from one client address (by the TCP peer's address). */
export function limitConnectionsPerAddress(app: FastifyInstance, perAddress: number): void {
  const shares = createKeyedShares(perAddress);
  app.server.on('connection', (socket: Socket) => {
    if (socket.remoteAddress === undefined) return;
    const place = shares.take(clientAddressKey(socket.remoteAddress));
    if (!place) {
      // Written at once, then closed: nothing this connection sends is parsed or served.
      socket.write(REFUSED);
      socket.destroy();
      return;
    }
    socket.once('close', place.release);
  });
}

/**
 * Behind a trusted proxy the client's address is known once a request's headers have arrived
 * (`request.ip`, from X-Forwarded-For): what one client holds open is its requests in flight,
 * each until its answer is over. Registered before authentication and the rate limits, so a
 * refused request costs no more than its headers.
 */
function limitOpenRequestsPerForwardedAddress(app: FastifyInstance, perAddress: number): void {
  const shares = createKeyedShares(perAddress);
  app.addHook('onRequest', (request, reply, done) => {
    const place = shares.take(clientAddressKey(request.ip));
    if (!place) {
      return done(
        tooManyRequests(
          `this client address already has ${perAddress} requests open on this server process, the most ` +
            'WRS_MAX_CONNECTIONS_PER_ADDRESS allows; retry once one has finished',
          1,
        ),
      );
    }
    whenResponseCloses(reply.raw, place.release);
    done();
  });
}

/** Whether a load balancer should still send this process new requests. */
export interface Rotation {
  readonly leaving: boolean;
  /** From now on `/readyz` answers 503; requests are still served until the server closes. */
  leave(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    rotation: Rotation;
  }
}

/** A rotation that a process's listeners share: the API's and the management listener's `/readyz` leave it together. */
export function createRotation(): Rotation {
  let leaving = false;
  return {
    get leaving() {
      return leaving;
    },
    leave() {
      leaving = true;
    },
  };
}

/**
 * Once the server starts closing, requests that arrive on connections still open are refused
 * with the service's own 503 body (and `Connection: close`), so a load balancer retries them
 * elsewhere; requests already in flight finish normally.
 */
export function registerDraining(app: FastifyInstance, rotation: Rotation = createRotation()): void {
  app.decorate('rotation', rotation);
  let draining = false;
  app.addHook('preClose', async () => {
    rotation.leave();
    draining = true;
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (!draining) return done();
    reply.header('connection', 'close');
    throw serviceUnavailable('the server is shutting down; retry', 1);
  });
  // A request in flight when closing began ends its connection with its answer; a keep-alive
  // socket that became idle after close() started would otherwise hold the drain open.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
}
