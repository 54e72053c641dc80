import { createPublicKey, type KeyObject } from 'node:crypto';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { Config } from '../../config/config.js';
import { unauthorized } from '../../errors/app-error.js';
import type { Clock } from '../../lib/clock.js';

const ASYMMETRIC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'];
/** Longer tokens are refused before any parsing or crypto. */
export const MAX_TOKEN_LENGTH = 8192;

export interface JwtVerifier {
  /** Verifies a user bearer token; throws a 401 AppError. */
  verifyUserToken(token: string): Promise<JWTPayload>;
  /** Verifies a token the service signed itself (record tokens); throws a 401 AppError. */
  verifyServiceToken(token: string): Promise<JWTPayload>;
  /**
   * The payload of a token verified before and still valid (its time claims checked again now),
   * and which way it was verified; undefined when it must be verified in full. Throws a 401 for
   * a known token that has expired since.
   */
  alreadyVerified(token: string): { kind: 'user' | 'service'; payload: JWTPayload } | undefined;
  /** True when user tokens come from an external issuer's asymmetric key. */
  readonly usesExternalKeys: boolean;
}

/**
 * User tokens are checked with exactly one key kind: HS256 with WRS_JWT_SECRET, or the
 * configured public key / JWKS with asymmetric algorithms only, so an HS token signed with a
 * public key is refused. Service-signed tokens always use HS256 with WRS_JWT_SECRET.
 */
export function createJwtVerifier(jwtConfig: Config['jwt'], clock: Clock): JwtVerifier {
  const secret = new TextEncoder().encode(jwtConfig.secret);
  let userKey: Uint8Array | KeyObject | JWTVerifyGetKey = secret;
  let userAlgorithms = ['HS256'];
  if (jwtConfig.publicKeyPem) {
    userKey = createPublicKey(jwtConfig.publicKeyPem);
    userAlgorithms = ASYMMETRIC_ALGORITHMS;
  } else if (jwtConfig.jwksUrl) {
    userKey = createRemoteJWKSet(new URL(jwtConfig.jwksUrl), { timeoutDuration: 5000 });
    userAlgorithms = ASYMMETRIC_ALGORITHMS;
  }
  const baseOptions = {
    clockTolerance: jwtConfig.leewaySeconds,
    ...(jwtConfig.issuer ? { issuer: jwtConfig.issuer } : {}),
    ...(jwtConfig.audience ? { audience: jwtConfig.audience } : {}),
  };

  async function verify(token: string, key: typeof userKey, algorithms: string[], checkIssuer: boolean, cache: VerifiedTokenCache, checkLifetime: boolean) {
    if (token.length > MAX_TOKEN_LENGTH) throw unauthorized('bearer token is too long');
    const now = clock.now();
    const cached = cache.get(token, now);
    if (cached) return cached;
    let payload: JWTPayload;
    try {
      const options = {
        ...(checkIssuer ? baseOptions : { clockTolerance: jwtConfig.leewaySeconds }),
        algorithms,
        currentDate: now,
      };
      ({ payload } = typeof key === 'function' ? await jwtVerify(token, key, options) : await jwtVerify(token, key, options));
    } catch (error) {
      throw unauthorized(describeJoseError(error));
    }
    // Before the cache: only a token within the bounds is remembered, and its time left only shrinks.
    const refusal = checkLifetime ? lifetimeProblem(payload, now) : undefined;
    if (refusal) throw unauthorized(refusal);
    cache.set(token, payload, now);
    return payload;
  }

  /** Why a user token's time span is refused (WRS_JWT_REQUIRE_EXP, WRS_JWT_MAX_LIFETIME_S), or undefined. */
  function lifetimeProblem(payload: JWTPayload, now: Date): string | undefined {
    const cap = jwtConfig.maxLifetimeSeconds;
    if (payload.exp === undefined) {
      if (cap !== undefined) return `bearer token has no expiry (exp claim): this service accepts tokens that live at most ${cap} s`;
      return jwtConfig.requireExpiry ? 'bearer token has no expiry (exp claim): this service accepts only tokens that expire' : undefined;
    }
    if (cap === undefined) return undefined;
    const lifetime = payload.exp - (payload.iat ?? Math.floor(now.getTime() / 1000));
    if (lifetime <= cap) return undefined;
    const span = payload.iat === undefined ? `it expires in ${lifetime} s` : `exp - iat is ${lifetime} s`;
    return `bearer token lives too long: ${span}, and this service accepts tokens that live at most ${cap} s`;
  }

  // Separate caches: a token verified as a service token says nothing about the user key.
  const userTokens = new VerifiedTokenCache(jwtConfig.leewaySeconds);
  const serviceTokens = new VerifiedTokenCache(jwtConfig.leewaySeconds);

  return {
    alreadyVerified(token) {
      if (token.length > MAX_TOKEN_LENGTH) return undefined;
      const now = clock.now();
      const user = userTokens.get(token, now);
      if (user) return { kind: 'user', payload: user };
      const service = serviceTokens.get(token, now);
      return service && { kind: 'service', payload: service };
    },
    usesExternalKeys: userKey !== secret,
    verifyUserToken: (token) => verify(token, userKey, userAlgorithms, true, userTokens, true),
    // Record tokens: minted here with an exp, their lifetime bounded when minted.
    verifyServiceToken: (token) => verify(token, secret, ['HS256'], false, serviceTokens, false),
  };
}

function describeJoseError(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'bearer token has expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf') return 'bearer token is not valid yet';
    return `bearer token claim "${error.claim}" is invalid`;
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return 'bearer token algorithm is not accepted';
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'bearer token signature is invalid';
  if (error instanceof joseErrors.JWKSTimeout || error instanceof joseErrors.JWKSNoMatchingKey) {
    return 'bearer token key could not be found';
  }
  return 'bearer token is malformed';
}

/** Verdicts remembered by each VerifiedTokenCache. */
const MAX_CACHED_TOKENS = 10_000;
/** A cached verdict is trusted this long; after it the signature is checked again (JWKS rotation). */
const MAX_CACHED_AGE_MS = 5 * 60_000;

/**
 * Remembers tokens whose signature and static claims (alg, iss, aud) already verified, so a
 * client sending the same bearer on every request does not pay for the crypto each time. The
 * time claims (exp, nbf) are still checked on every hit, against the service's clock.
 */
class VerifiedTokenCache {
  private readonly entries = new Map<string, { payload: JWTPayload; verifiedAt: number }>();

  constructor(private readonly leewaySeconds: number) {}

  /** The cached payload, or undefined when the token must be verified in full. */
  get(token: string, now: Date): JWTPayload | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (now.getTime() - entry.verifiedAt > MAX_CACHED_AGE_MS) {
      this.entries.delete(token);
      return undefined;
    }
    const seconds = now.getTime() / 1000;
    if (typeof entry.payload.exp === 'number' && entry.payload.exp + this.leewaySeconds <= seconds) {
      this.entries.delete(token);
      throw unauthorized('bearer token has expired');
    }
    if (typeof entry.payload.nbf === 'number' && entry.payload.nbf - this.leewaySeconds > seconds) {
      throw unauthorized('bearer token is not valid yet');
    }
    return entry.payload;
  }

  set(token: string, payload: JWTPayload, now: Date): void {
    if (this.entries.size >= MAX_CACHED_TOKENS) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, { payload, verifiedAt: now.getTime() });
  }
}
