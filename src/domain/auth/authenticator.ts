import { decodeJwt, type JWTPayload } from 'jose';
import { unauthorized } from '../../errors/app-error.js';
import { isStorableText } from '../../lib/text.js';
import { COMPANY_ID_RULE, companyIdProblem } from './company-id.js';
import type { Identity, RecordTokenIdentity } from './identity.js';
import type { JwtVerifier } from './jwt-verifier.js';

/** Turns a verified record-token payload into an identity, checking its stored document. */
export interface RecordTokenResolver {
  resolve(payload: JWTPayload): Promise<RecordTokenIdentity>;
}

export interface Authenticator {
  /** Reads an Authorization header; throws a 401 AppError for anything but a valid credential. */
  authenticate(authorizationHeader: string | undefined): Promise<Identity>;
  /**
   * The user of a header whose token was verified recently (the verified-token cache), at once;
   * undefined for anything else, which `authenticate` then reads in full.
   */
  knownUser(authorizationHeader: string | undefined): Identity | undefined;
}

export function createAuthenticator(verifier: JwtVerifier, recordTokens?: RecordTokenResolver): Authenticator {
  // A cached verdict hands back the same payload object, so its identity is built once too.
  const users = new WeakMap<JWTPayload, Identity>();
  const userOf = (payload: JWTPayload): Identity => {
    let identity = users.get(payload);
    if (!identity) users.set(payload, (identity = userIdentity(payload)));
    return identity;
  };
  return {
    knownUser(header) {
      const token = header === undefined ? undefined : bearerTokenOrUndefined(header);
      const known = token === undefined ? undefined : verifier.alreadyVerified(token);
      return known?.kind === 'user' ? userOf(known.payload) : undefined;
    },
    // The verifier's cache still spares a token seen before its signature check; the lookup
    // without a promise is knownUser's, which the authentication hook asks first.
    async authenticate(header) {
      const token = bearerToken(header);
      if (claimsType(token) === 'record') {
        if (!recordTokens) throw unauthorized('record tokens are not accepted by this service');
        return recordTokens.resolve(await verifier.verifyServiceToken(token));
      }
      return userOf(await verifier.verifyUserToken(token));
    },
  };
}

const BEARER = /^Bearer +(\S+) *$/i;

function bearerToken(header: string | undefined): string {
  if (!header) throw unauthorized('missing bearer token: send "Authorization: Bearer <token>"');
  const token = bearerTokenOrUndefined(header);
  if (token === undefined) throw unauthorized('Authorization header must be "Bearer <token>"');
  return token;
}

function bearerTokenOrUndefined(header: string): string | undefined {
  return BEARER.exec(header)?.[1];
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
  return { kind: 'user', companyId: companyOf(payload), userId: nonEmptyString(payload.sub) ?? nonEmptyString(payload.user_id) ?? null };
}

/** `company_id`, or its alias `companyId` only when `company_id` is absent: a malformed claim is never passed over. */
function companyOf(payload: JWTPayload): string {
  const [claim, value] = payload.company_id !== undefined ? ['company_id', payload.company_id] : ['companyId', payload.companyId];
  if (value === undefined) throw unauthorized('bearer token has no company_id claim');
  const problem = companyIdProblem(value);
  if (problem) throw unauthorized(`bearer token claim ${claim} is not a company ID: it ${problem} (${COMPANY_ID_RULE})`);
  return value as string;
}

/** A claim the service can store and look up: a non-empty string without NUL or lone surrogates. */
function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && isStorableText(value) ? value : undefined;
}
