import { useState } from 'preact/hooks';
import { apiClient, call } from '../shared/api';
import { claimsOf } from '../shared/jwt-claims';
import { clearSession, saveSession, sessionOf, type Session } from './session';
import { TOKEN_SOURCES, refusalBeforeAsking, refusalOfService } from './sign-in-refusal';

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
    const pasted = token.trim().replace(/^Bearer\s+/i, '');
    const early = refusalBeforeAsking(pasted);
    if (early) {
      setError(early);
      return;
    }
    setBusy(true);
    // The service says what the token is, the operator token included: the page cannot tell that one.
    const result = await call(() => apiClient(pasted).GET('/v1/record-types'));
    setBusy(false);
    if (!result.ok) {
      setError(refusalOfService(result.problem, claimsOf(pasted) !== undefined));
      return;
    }
    const session = sessionOf(pasted);
    if (!session) {
      setError('The service took this token, but the console cannot read the company it names (no company_id claim).');
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
            A company user's token. {TOKEN_SOURCES} It is kept in this tab only and forgotten when the tab closes.
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
