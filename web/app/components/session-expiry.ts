import type { ApiProblem } from '../../shared/problems';

export const SESSION_EXPIRED_MESSAGE = 'Your session expired or the token was revoked. Sign in again.';

/** Ends the session on a 401 (answers true then), so the page shows nothing stale. */
export function signedOutOnUnauthorized(problem: ApiProblem, signOut: (reason?: string) => void): boolean {
  if (problem.status !== 401) return false;
  signOut(SESSION_EXPIRED_MESSAGE);
  return true;
}
