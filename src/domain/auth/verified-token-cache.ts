import type { JWTPayload } from 'jose';
import { unauthorized } from '../../errors/app-error.js';

const MAX_ENTRIES = 10_000;
/** A cached verdict is trusted this long; after it the signature is checked again (JWKS rotation). */
const MAX_AGE_MS = 5 * 60_000;

/**
 * Remembers tokens whose signature and static claims (alg, iss, aud) already verified, so a
 * client sending the same bearer on every request does not pay for the crypto each time. The
 * time claims (exp, nbf) are still checked on every hit, against the service's clock.
 */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, { payload: JWTPayload; verifiedAt: number }>();

  constructor(private readonly leewaySeconds: number) {}

  /** The cached payload, or undefined when the token must be verified in full. */
  get(token: string, now: Date): JWTPayload | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (now.getTime() - entry.verifiedAt > MAX_AGE_MS) {
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
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, { payload, verifiedAt: now.getTime() });
  }
}
