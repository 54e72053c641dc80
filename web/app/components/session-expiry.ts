import type { ApiResult } from '../../shared/api';
import type { Console } from '../console-context';

export const SESSION_EXPIRED_REASON = 'Your session expired or the token was revoked. Sign in again.';

/** Signs out on a 401 (the token expired or was revoked); answers whether it did. */
export function signOutIfUnauthorized(console: Console, result: ApiResult<unknown>): boolean {
  if (result.ok || result.problem.status !== 401) return false;
  console.signOut(SESSION_EXPIRED_REASON);
  return true;
}
