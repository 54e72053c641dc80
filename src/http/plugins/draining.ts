import type { FastifyInstance } from 'fastify';
import { serviceUnavailable } from '../../errors/app-error.js';

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
