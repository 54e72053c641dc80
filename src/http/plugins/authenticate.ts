import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticator } from '../../domain/auth/authenticator.js';
import type { Identity, RecordTokenIdentity } from '../../domain/auth/identity.js';
import { forbidden, unauthorized } from '../../errors/app-error.js';

declare module 'fastify' {
  interface FastifyRequest {
    identity: Identity | null;
  }
  interface FastifyContextConfig {
    /**
     * The route may be called with a record token: `true` for the record named by the `record`
     * path parameter only; `'own-record-type'` for the record type named by the `typeId` path
     * parameter only when the token's record follows it. Every other route refuses record
     * tokens with 403.
     */
    allowRecordToken?: boolean | 'own-record-type';
  }
}

/** The custom record type a company's record follows, or null (no such record, or no type). */
export type RecordTypeOf = (companyId: string, recordId: string) => Promise<string | null>;

/** The 401 for the operator token sent where a company's credential is wanted. */
export const OPERATOR_TOKEN_ON_V1 =
  "this is the operator token (WRS_ADMIN_TOKEN), which only /admin routes take: /v1 wants a company user's JWT (or a record token)";

/**
 * Authenticates every request of the scope it is registered in, before any handler runs. A
 * request refused that sent the operator token (`adminToken`) is told so.
 */
export function registerAuthentication(scope: FastifyInstance, authenticator: Authenticator, recordTypeOf: RecordTypeOf, adminToken?: string): void {
  scope.decorateRequest('identity', null);
  const isOperatorToken = adminToken === undefined ? () => false : bearerMatcher(adminToken);
  async function authenticateInFull(request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization;
    const identity = await authenticator.authenticate(header).catch((error: unknown) => {
      throw header !== undefined && isOperatorToken(header) ? unauthorized(OPERATOR_TOKEN_ON_V1) : error;
    });
    if (identity.kind === 'record') await assertRecordTokenMayCall(request, identity, recordTypeOf);
    request.identity = identity;
  }
  // A user token verified recently is known at once: no promise, no turn of the microtask queue.
  scope.addHook('onRequest', (request, _reply, done) => {
    const known = authenticator.knownUser(request.headers.authorization);
    if (known) {
      request.identity = known;
      return done();
    }
    authenticateInFull(request).then(() => done(), done);
  });
}

async function assertRecordTokenMayCall(request: FastifyRequest, token: RecordTokenIdentity, recordTypeOf: RecordTypeOf): Promise<void> {
  const allowed = request.routeOptions.config.allowRecordToken;
  if (!allowed) throw forbidden('a record token may only read and update its own record');
  const params = request.params as { record?: string; typeId?: string } | undefined;
  if (allowed === 'own-record-type') {
    const ownType = await recordTypeOf(token.companyId, token.recordId);
    if (ownType === null || params?.typeId !== ownType) throw forbidden("a record token may only read its own record's type");
    return;
  }
  if (params?.record !== token.recordId) throw forbidden('this record token is for another record');
}

/** The identity of an authenticated request. */
export function identityOf(request: FastifyRequest): Identity {
  if (!request.identity) throw unauthorized('missing bearer token');
  return request.identity;
}

/** Whether an Authorization header is `Bearer <secret>`, compared in constant time. */
function bearerMatcher(secret: string): (header: string) => boolean {
  const digest = (value: string): Buffer => createHash('sha256').update(value).digest();
  const expected = digest(`Bearer ${secret}`);
  return (header) => timingSafeEqual(digest(header), expected);
}
