import { claimsOf } from '../shared/jwt-claims';

/**
 * The record token of the hosted form travels in the URL fragment (never sent to a server, never
 * in a log). On arrival it moves to sessionStorage and leaves the address bar, so a reload of the
 * tab still works and the link is not left on screen or in the history.
 */
const KEY = 'wrs.form.token';

export type FormLink =
  | { kind: 'valid'; token: string; recordId: string; expiresAt: number | undefined }
  | { kind: 'expired'; expiresAt: number }
  | { kind: 'missing' }
  | { kind: 'invalid' }
  | { kind: 'staff-token' };

export function takeTokenFromAddress(): string | undefined {
  const fromHash = decodeFragment(location.hash.replace(/^#/, '')).trim();
  if (fromHash) {
    sessionStorage.setItem(KEY, fromHash);
    history.replaceState(history.state, '', `${location.pathname}${location.search}`);
    return fromHash;
  }
  return sessionStorage.getItem(KEY) ?? undefined;
}

/** What the page can tell about the link before asking the service. */
export function formLinkOf(token: string | undefined, nowMs = Date.now()): FormLink {
  if (!token) return { kind: 'missing' };
  const claims = claimsOf(token);
  // A company user's token names its company and is no record token: someone pasted the wrong thing.
  if (claims && claims.type !== 'record' && (typeof claims.company_id === 'string' || typeof claims.companyId === 'string')) {
    return { kind: 'staff-token' };
  }
  if (claims?.type !== 'record' || typeof claims.record_id !== 'string' || claims.record_id === '') return { kind: 'invalid' };
  const expiresAt = typeof claims.exp === 'number' ? claims.exp : undefined;
  if (expiresAt !== undefined && hasPassed(expiresAt, nowMs)) return { kind: 'expired', expiresAt };
  return { kind: 'valid', token, recordId: claims.record_id, expiresAt };
}

/** Whether an `exp` (seconds since the epoch) lies in the past. */
export const hasPassed = (expiresAt: number, nowMs = Date.now()) => expiresAt * 1000 <= nowMs;

function decodeFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}
