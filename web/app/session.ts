import { claimsOf } from '../shared/jwt-claims';
import { forgetList } from './components/list-return';

/**
 * The signed-in user's bearer token, kept in sessionStorage: gone when the tab closes, never
 * in a cookie (so no request carries it unasked) and never in a URL.
 */
const KEY = 'wrs.console.token';

export interface Session {
  token: string;
  companyId: string;
  userId: string | undefined;
  /** Seconds since the epoch, when the token says. */
  expiresAt: number | undefined;
}

export function loadSession(): Session | undefined {
  const token = sessionStorage.getItem(KEY);
  return token ? sessionOf(token) : undefined;
}

export function saveSession(token: string): Session | undefined {
  const session = sessionOf(token);
  if (session) sessionStorage.setItem(KEY, session.token);
  return session;
}

export function clearSession(): void {
  sessionStorage.removeItem(KEY);
  forgetList();
}

/** Reads the claims the console shows; the service, not this page, decides whether the token is good. */
export function sessionOf(rawToken: string): Session | undefined {
  const token = rawToken.trim().replace(/^Bearer\s+/i, '');
  const claims = claimsOf(token);
  if (!claims) return undefined;
  const companyId = claims.company_id ?? claims.companyId;
  if (typeof companyId !== 'string') return undefined;
  const user = claims.sub ?? claims.user_id;
  return {
    token,
    companyId,
    userId: typeof user === 'string' ? user : undefined,
    expiresAt: typeof claims.exp === 'number' ? claims.exp : undefined,
  };
}
