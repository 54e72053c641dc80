import { useState } from 'preact/hooks';
import { apiClient, call } from '../shared/api';
import { clearSession, saveSession, sessionOf, type Session } from './session';

/**
 * Asks for a bearer token (the JWT a company's identity provider issues, or the one `npm start`
 * prints) and checks it against the service before keeping it for this tab.
 */
export function SignIn({ reason, onSignedIn }: { reason: string | undefined; onSignedIn: (session: Session) => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    const session = sessionOf(token);
    if (!session) {
      setError('That is not a company user token: paste a JWT whose claims include company_id.');
      return;
    }
    if (session.expiresAt !== undefined && session.expiresAt * 1000 <= Date.now()) {
      setError('That token has expired. Ask for a new one.');
      return;
    }
    setBusy(true);
    const result = await call(() => apiClient(session.token).GET('/v1/record-types'));
    setBusy(false);
    if (!result.ok) {
      setError(
        result.problem.status === 401
          ? `The service refused the token: ${result.problem.message}`
          : result.problem.status === 403
            ? 'That is a record token: it opens one record in the hosted form, not the console.'
            : result.problem.message,
      );
      return;
    }
    clearSession();
    const saved = saveSession(session.token);
    if (saved) onSignedIn(saved);
  }

  return (
    <main class="sign-in card" id="main">
      <h1>Sign in to the wrs console</h1>
      {reason && (
        <div class="notice warning" role="status">
          {reason}
        </div>
      )}
      <form onSubmit={submit} noValidate>
        <div class="field">
          <label for="token">Bearer token</label>
          <span class="hint" id="token-hint">
            A company user's JWT. It is kept in this tab only and forgotten when the tab closes.
          </span>
          <textarea
            id="token"
            name="token"
            required
            autocomplete="off"
            spellcheck={false}
            aria-describedby={error ? 'token-hint token-error' : 'token-hint'}
            aria-invalid={error ? 'true' : undefined}
            value={token}
            onInput={(event) => setToken(event.currentTarget.value)}
          />
          {error && (
            <span class="error" id="token-error" role="alert">
              {error}
            </span>
          )}
        </div>
        <button class="primary" type="submit" disabled={busy || token.trim() === ''}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
