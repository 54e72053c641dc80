import { useCallback } from 'preact/hooks';
import type { ApiProblem } from '../../../shared/problems';
import { useConsole } from '../../console-context';

export const SESSION_ENDED = 'Your session expired or the token was revoked. Sign in again.';

/** A 401 anywhere on the page ends the console session with one explanation. */
export function useSessionEnded(): () => void {
  const { signOut } = useConsole();
  return useCallback(() => signOut(SESSION_ENDED), [signOut]);
}

/** Ends the session on a 401 and answers true; any other problem is the caller's to show. */
export function endsSession(problem: ApiProblem, sessionEnded: () => void): boolean {
  if (problem.status !== 401) return false;
  sessionEnded();
  return true;
}
