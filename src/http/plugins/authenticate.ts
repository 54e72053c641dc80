import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticator } from '../../domain/auth/authenticator.js';
import type { Identity } from '../../domain/auth/identity.js';
import { forbidden, unauthorized } from '../../errors/app-error.js';

declare module 'fastify' {
  interface FastifyRequest {
    identity: Identity | null;
  }
  interface FastifyContextConfig {
    /**
     * The route may be called with a record token, for the record named by the `record` path
     * parameter only. Every other route refuses record tokens with 403.
     */
    allowRecordToken?: boolean;
  }
}

/** Authenticates every request of the scope it is registered in, before any handler runs. */
export function registerAuthentication(scope: FastifyInstance, authenticator: Authenticator): void {
  scope.decorateRequest('identity', null);
  scope.addHook('onRequest', async (request) => {
    const identity = await authenticator.authenticate(request.headers.authorization);
    if (identity.kind === 'record') assertRecordTokenMayCall(request, identity.recordId);
    request.identity = identity;
  });
}

function assertRecordTokenMayCall(request: FastifyRequest, recordId: string): void {
  if (!request.routeOptions.config.allowRecordToken) {
    throw forbidden('a record token may only read and update its own record');
  }
  const params = request.params as { record?: string } | undefined;
  if (params?.record !== recordId) throw forbidden('this record token is for another record');
}

/** The identity of an authenticated request. */
export function identityOf(request: FastifyRequest): Identity {
  if (!request.identity) throw unauthorized('missing bearer token');
  return request.identity;
}
