import { useCallback } from 'preact/hooks';
import type { ApiProblem } from '../../../shared/problems';
import { SESSION_EXPIRED_MESSAGE } from '../../components/session-expiry';
import { useConsole } from '../../console-context';

/** A 401 anywhere on the page ends the console session with one explanation. */
export function useSessionEnded(): () => void {
  const { signOut } = useConsole();
  return useCallback(() => signOut(SESSION_EXPIRED_MESSAGE), [signOut]);
}

/** Ends the session on a 401 and answers true; any other problem is the caller's to show. */
export function endsSession(problem: ApiProblem, sessionEnded: () => void): boolean {
  if (problem.status !== 401) return false;
  sessionEnded();
  return true;
}
