import { useCallback } from 'preact/hooks';
import type { ApiResult } from '../../shared/api';
import type { ApiProblem } from '../../shared/problems';
import { useConsole, type Console } from '../console-context';

export const SESSION_EXPIRED_MESSAGE = 'Your session expired or the token was revoked. Sign in again.';

/** Ends the session on a 401 (answers true then), so the page shows nothing stale. */
export function signedOutOnUnauthorized(problem: ApiProblem, signOut: (reason?: string) => void): boolean {
  if (problem.status !== 401) return false;
  signOut(SESSION_EXPIRED_MESSAGE);
  return true;
}

/** The same for a whole call's result; answers whether it signed out. */
export function signOutIfUnauthorized(console: Console, result: ApiResult<unknown>): boolean {
  return !result.ok && signedOutOnUnauthorized(result.problem, console.signOut);
}

/** A callback that ends the session with the one explanation, for code that meets a 401 outside a call's result. */
export function useSessionEnded(): () => void {
  const { signOut } = useConsole();
  return useCallback(() => signOut(SESSION_EXPIRED_MESSAGE), [signOut]);
}
