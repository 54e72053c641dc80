/**
 * The operator token (WRS_ADMIN_TOKEN), kept in sessionStorage like the console's token: gone
 * when the tab closes, never in a cookie or a URL. The company last opened is kept beside it.
 */
const TOKEN_KEY = 'wrs.operator.token';
const COMPANY_KEY = 'wrs.operator.company';

export function loadOperatorToken(): string | undefined {
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

export function saveOperatorToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export function clearOperatorSession(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(COMPANY_KEY);
}

export function loadCompany(): string | undefined {
  return sessionStorage.getItem(COMPANY_KEY) ?? undefined;
}

export function saveCompany(company: string): void {
  sessionStorage.setItem(COMPANY_KEY, company);
}

/** What was pasted, without blanks or a leading "Bearer ". */
export function cleanToken(raw: string): string {
  return raw.trim().replace(/^Bearer\s+/i, '');
}
