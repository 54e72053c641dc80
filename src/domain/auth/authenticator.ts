import { decodeJwt, type JWTPayload } from 'jose';
import { unauthorized } from '../../errors/app-error.js';
import { isStorableText } from '../../lib/text.js';
import type { Identity, RecordTokenIdentity } from './identity.js';
import type { JwtVerifier } from './jwt-verifier.js';

/** Turns a verified record-token payload into an identity, checking its stored document. */
export interface RecordTokenResolver {
  resolve(payload: JWTPayload): Promise<RecordTokenIdentity>;
}

export interface Authenticator {
  /** Reads an Authorization header; throws a 401 AppError for anything but a valid credential. */
  authenticate(authorizationHeader: string | undefined): Promise<Identity>;
}

export function createAuthenticator(verifier: JwtVerifier, recordTokens?: RecordTokenResolver): Authenticator {
  return {
    async authenticate(header) {
      const token = bearerToken(header);
      if (claimsType(token) === 'record') {
        if (!recordTokens) throw unauthorized('record tokens are not accepted by this service');
        return recordTokens.resolve(await verifier.verifyServiceToken(token));
      }
      return userIdentity(await verifier.verifyUserToken(token));
    },
  };
}

function bearerToken(header: string | undefined): string {
  if (!header) throw unauthorized('missing bearer token: send "Authorization: Bearer <token>"');
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match) throw unauthorized('Authorization header must be "Bearer <token>"');
  return match[1]!;
}

/** Peeks at the unverified `type` claim only to choose the verification key. */
function claimsType(token: string): unknown {
  try {
    return decodeJwt(token).type;
  } catch {
    throw unauthorized('bearer token is malformed');
  }
}

function userIdentity(payload: JWTPayload): Identity {
  const companyId = nonEmptyString(payload.company_id) ?? nonEmptyString(payload.companyId);
  if (!companyId) throw unauthorized('bearer token has no company_id claim');
  const userId = nonEmptyString(payload.sub) ?? nonEmptyString(payload.user_id) ?? null;
  return { kind: 'user', companyId, userId };
}

/** A claim the service can store and look up: a non-empty string without NUL or lone surrogates. */
function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && isStorableText(value) ? value : undefined;
}
