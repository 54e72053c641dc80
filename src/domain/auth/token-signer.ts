import { SignJWT, type JWTPayload } from 'jose';
import type { Config } from '../../config/config.js';
import type { Clock } from '../../lib/clock.js';

export interface SignedToken {
  token: string;
  issuedAt: Date;
  expiresAt: Date;
}

/**
 * Signs the service's own tokens (minted user tokens, record tokens) with HS256 and
 * WRS_JWT_SECRET, naming WRS_JWT_ISSUER / WRS_JWT_AUDIENCE when set, since the verifier
 * then requires them of every user token.
 */
export interface TokenSigner {
  sign(claims: JWTPayload, expiresInSeconds: number): Promise<SignedToken>;
}

export function createTokenSigner(jwtConfig: Pick<Config['jwt'], 'secret' | 'issuer' | 'audience'>, clock: Clock): TokenSigner {
  const key = new TextEncoder().encode(jwtConfig.secret);
  return {
    async sign(claims, expiresInSeconds) {
      // Whole seconds, so that exp - iat is exactly the requested lifetime.
      const issuedAtSeconds = Math.floor(clock.now().getTime() / 1000);
      const expiresAtSeconds = issuedAtSeconds + expiresInSeconds;
      let jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt(issuedAtSeconds).setExpirationTime(expiresAtSeconds);
      if (jwtConfig.issuer) jwt = jwt.setIssuer(jwtConfig.issuer);
      if (jwtConfig.audience) jwt = jwt.setAudience(jwtConfig.audience);
      const token = await jwt.sign(key);
      return { token, issuedAt: new Date(issuedAtSeconds * 1000), expiresAt: new Date(expiresAtSeconds * 1000) };
    },
  };
}
