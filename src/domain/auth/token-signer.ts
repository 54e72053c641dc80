import { SignJWT, type JWTPayload } from 'jose';
import type { Clock } from '../../lib/clock.js';

export interface SignedToken {
  token: string;
  issuedAt: Date;
  expiresAt: Date;
}

/** Signs the service's own tokens (minted user tokens, record tokens) with HS256 and WRS_JWT_SECRET. */
export interface TokenSigner {
  sign(claims: JWTPayload, expiresInSeconds: number): Promise<SignedToken>;
}

export function createTokenSigner(secret: string, clock: Clock): TokenSigner {
  const key = new TextEncoder().encode(secret);
  return {
    async sign(claims, expiresInSeconds) {
      // Whole seconds, so that exp - iat is exactly the requested lifetime.
      const issuedAtSeconds = Math.floor(clock.now().getTime() / 1000);
      const expiresAtSeconds = issuedAtSeconds + expiresInSeconds;
      const token = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt(issuedAtSeconds)
        .setExpirationTime(expiresAtSeconds)
        .sign(key);
      return { token, issuedAt: new Date(issuedAtSeconds * 1000), expiresAt: new Date(expiresAtSeconds * 1000) };
    },
  };
}
