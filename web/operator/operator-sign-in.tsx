import { useState } from 'preact/hooks';
import { apiClient, call } from '../shared/api';
import { cleanToken, saveCompany, saveOperatorToken } from './operator-session';

const LOOKS_LIKE_JWT = /^eyJ[\w-]*\.[\w-]+\.[\w-]*$/;

/**
 * Asks for the operator token and the company to work on, and checks both against the operator
 * API (the company's record types) before keeping them for this tab.
 */
export function OperatorSignIn({ reason, onSignedIn }: { reason?: string; onSignedIn: (token: string, company: string) => void }) {
  const [token, setToken] = useState('');
  const [company, setCompany] = useState('demo-company');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    const cleaned = cleanToken(token);
    const companyId = company.trim();
    setBusy(true);
    const result = await call(() => apiClient(cleaned).GET('/admin/v1/companies/{company}/record-types', { params: { path: { company: companyId } } }));
    setBusy(false);
    if (!result.ok) {
      if (result.problem.status === 401 && LOOKS_LIKE_JWT.test(cleaned)) {
        setError('That is a company user token (a JWT): it opens the console at /app/. This page takes the operator token, WRS_ADMIN_TOKEN.');
      } else if (result.problem.status === 401) {
        setError(`The service refused the token: ${result.problem.message}`);
      } else setError(result.problem.message);
      return;
    }
    saveOperatorToken(cleaned);
    saveCompany(companyId);
    onSignedIn(cleaned, companyId);
  }

  const described = (hint: string) => (error ? `${hint} operator-error` : hint);
  return (
    <main class="sign-in card" id="main">
      <h1>Sign in as the operator</h1>
      {reason && (
        <div class="notice warning" role="status">
          {reason}
        </div>
      )}
      <form onSubmit={submit} noValidate>
        <div class="field">
          <label for="operator-token">Operator token</label>
          <span class="hint" id="operator-token-hint">
            WRS_ADMIN_TOKEN (the ADMIN_TOKEN line of <code>npm start</code>'s start screen). Kept in this tab only.
          </span>
          <textarea
            id="operator-token"
            required
            autocomplete="off"
            spellcheck={false}
            aria-describedby={described('operator-token-hint')}
            aria-invalid={error ? 'true' : undefined}
            value={token}
            onInput={(event) => setToken(event.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="operator-company">Company ID</label>
          <span class="hint" id="operator-company-hint">
            The company whose record types and PDF templates you design.
          </span>
          <input
            id="operator-company"
            required
            autocomplete="off"
            aria-describedby={described('operator-company-hint')}
            value={company}
            onInput={(event) => setCompany(event.currentTarget.value)}
          />
        </div>
        {error && (
          <p class="error" id="operator-error" role="alert">
            {error}
          </p>
        )}
        <button class="primary" type="submit" disabled={busy || cleanToken(token) === '' || company.trim() === ''}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
