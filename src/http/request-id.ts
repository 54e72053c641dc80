import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { uuidv7 } from '../lib/ids.js';

const INCOMING_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** A request's id: the caller's `x-request-id` when it is a plausible one, else a new UUIDv7. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && INCOMING_REQUEST_ID.test(incoming) ? incoming : uuidv7();
}

/** Every answer carries its request's id (an `onRequest` hook). */
export function sendRequestId(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  reply.header('x-request-id', request.id);
  done();
}
