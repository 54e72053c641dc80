import type { ApiProblem } from '../shared/problems';
import { claimsOf } from '../shared/jwt-claims';
import { formatDateTime } from './components/date-time-text';

/** Where a company user's token comes from, as the sign-in page says it. */
export const TOKEN_SOURCES =
  "Your company's identity provider issues it (a JWT with a company_id claim); on a development install, npm start prints one as TOKEN on its start screen.";

const OPERATOR =
  'This is the operator token (ADMIN_TOKEN, WRS_ADMIN_TOKEN): it opens the operator API, not the console. Sign in with a company user token instead (TOKEN on the start screen).';

/** Why the page refuses a token before asking the service; undefined when only the service can tell. */
export function refusalBeforeAsking(token: string, nowMs = Date.now()): string | undefined {
  const claims = claimsOf(token);
  // Not a JWT: perhaps the operator token, which only the service can recognise.
  if (!claims) return undefined;
  if (claims.type === 'record') {
    return 'This is a form link’s record token: it opens one record in the hosted form (/forms/), not the console. Sign in with a company user token.';
  }
  if (typeof (claims.company_id ?? claims.companyId) !== 'string') {
    return 'This JWT names no company (it has no company_id claim), so it cannot open a company’s console. Ask for a company user token.';
  }
  if (typeof claims.exp === 'number' && claims.exp * 1000 <= nowMs) {
    return `This token expired on ${formatDateTime(new Date(claims.exp * 1000).toISOString())}. Ask for a new one: npm start prints a fresh TOKEN each time it starts.`;
  }
  return undefined;
}

/** The service's refusal of the token in words that say what to do. */
export function refusalOfService(problem: ApiProblem, isJwt: boolean): string {
  const message = problem.message;
  if (problem.status === 401) {
    if (message.startsWith('this is the operator token')) return OPERATOR;
    if (!isJwt) return `This is not a token the console takes: a company user token is a JWT (three parts separated by dots, starting “eyJ”).`;
    if (/signature is invalid/.test(message)) {
      return 'The service does not trust this token’s signature: it was signed by another issuer or key (another installation, or another identity provider).';
    }
    if (/has expired/.test(message)) return 'This token has expired. Ask for a new one: npm start prints a fresh TOKEN each time it starts.';
    if (/record token/.test(message))
      return `This form link is no longer valid (${message}). It would not open the console anyway: sign in with a company user token.`;
    return `The service refused the token: ${message}.`;
  }
  if (problem.status === 403) return 'This is a record token: it opens one record in the hosted form, not the console.';
  return message;
}
