import { useCallback, useEffect, useState } from 'preact/hooks';
import type { RecordTokenSummary } from '@wrs/client';
import { call } from '../../../shared/api';
import { useConsole } from '../../console-context';
import { formatDateTime } from './format';
import { signedOutOnUnauthorized, useSessionEnded } from '../../components/session-expiry';
import { CopyToClipboardButton } from '../../components/copy-to-clipboard-button';

const EXPIRIES = [
  { label: '1 hour', seconds: 3_600 },
  { label: '1 day', seconds: 86_400 },
  { label: '7 days', seconds: 604_800 },
  { label: '30 days', seconds: 2_592_000 },
];

interface MintedLink {
  key: string;
  link: string;
  expiresAt: string;
}

/**
 * Form links of the record: each is a record token that opens the hosted form. The token string
 * is only in the mint answer, so the link is shown (and copyable) right after minting only.
 */
export function TokensPanel({ recordId }: { recordId: string }) {
  const { client } = useConsole();
  const sessionEnded = useSessionEnded();
  const [tokens, setTokens] = useState<RecordTokenSummary[]>();
  const [expiresIn, setExpiresIn] = useState(86_400);
  const [label, setLabel] = useState('');
  const [minted, setMinted] = useState<MintedLink>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState<string>();

  const refresh = useCallback(async () => {
    const result = await call(() => client.GET('/v1/records/{record}/tokens', { params: { path: { record: recordId } }, cache: 'no-store' }));
    if (result.ok) setTokens(result.data.results);
    else if (!signedOutOnUnauthorized(result.problem, sessionEnded)) setError(`The form links could not be listed: ${result.problem.message}`);
  }, [client, recordId, sessionEnded]);
  useEffect(() => void refresh(), [refresh]);

  async function mint(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setStatus(undefined);
    const result = await call(() =>
      client.POST('/v1/records/{record}/tokens', {
        params: { path: { record: recordId } },
        body: { expires_in: expiresIn, ...(label.trim() ? { label: label.trim() } : {}) },
      }),
    );
    setBusy(false);
    if (!result.ok) {
      if (!signedOutOnUnauthorized(result.problem, sessionEnded)) setError(`No link was created: ${result.problem.message}`);
      return;
    }
    setMinted({ key: result.data.key, link: `${location.origin}/forms/#${result.data.token}`, expiresAt: result.data.expires_at });
    setLabel('');
    setStatus('Form link created. Copy it now: it cannot be shown again.');
    await refresh();
  }

  async function revoke(key: string) {
    setError(undefined);
    setStatus(undefined);
    const result = await call(() => client.DELETE('/v1/records/{record}/tokens/{key}', { params: { path: { record: recordId, key } } }));
    if (!result.ok) {
      if (!signedOutOnUnauthorized(result.problem, sessionEnded)) setError(`The link was not revoked: ${result.problem.message}`);
      return;
    }
    if (minted?.key === key) setMinted(undefined);
    setStatus('Form link revoked: it no longer opens the record.');
    await refresh();
  }

  return (
    <section class="card" aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">Form links</h2>
      <p class="muted">A form link lets someone without a console account update this record's fields, until it expires or is revoked.</p>
      <form class="row" onSubmit={mint}>
        <label for="token-expiry">Valid for</label>
        <select id="token-expiry" value={String(expiresIn)} onChange={(event) => setExpiresIn(Number(event.currentTarget.value))}>
          {EXPIRIES.map((expiry) => (
            <option key={expiry.seconds} value={String(expiry.seconds)}>
              {expiry.label}
            </option>
          ))}
        </select>
        <label for="token-label">For (optional)</label>
        <input
          id="token-label"
          type="text"
          maxLength={200}
          placeholder="e.g. J. Smith, borrower"
          value={label}
          onInput={(event) => setLabel(event.currentTarget.value)}
        />
        <button type="submit" class="primary" disabled={busy}>
          Create form link
        </button>
      </form>
      {minted && (
        <div class="field minted-link">
          <label for="minted-link">New form link (valid until {formatDateTime(minted.expiresAt)})</label>
          <div class="row">
            <input id="minted-link" type="text" readOnly value={minted.link} onFocus={(event) => event.currentTarget.select()} />
            <CopyToClipboardButton text={minted.link} label="Copy link" />
          </div>
        </div>
      )}
      <div aria-live="polite">{status && <p class="notice success">{status}</p>}</div>
      {error && (
        <p class="notice error" role="alert">
          {error}
        </p>
      )}
      <TokenList tokens={tokens} onRevoke={(key) => void revoke(key)} />
    </section>
  );
}

function TokenList({ tokens, onRevoke }: { tokens: RecordTokenSummary[] | undefined; onRevoke(key: string): void }) {
  if (!tokens) return <p class="muted">Loading form links…</p>;
  if (tokens.length === 0) return <p class="muted">No live form links.</p>;
  return (
    <div class="table-scroll">
      <table>
        <caption class="visually-hidden">Live form links</caption>
        <thead>
          <tr>
            <th scope="col">For</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">By</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr key={token.key} data-token-key={token.key}>
              <td>{token.label ?? <span class="muted">—</span>}</td>
              <td>{formatDateTime(token.created_at)}</td>
              <td>{formatDateTime(token.expires_at)}</td>
              <td>{token.user_id}</td>
              <td>
                <button
                  type="button"
                  class="danger"
                  onClick={() => onRevoke(token.key)}
                  aria-label={`Revoke the link ${token.label ? `for ${token.label}, ` : ''}created ${formatDateTime(token.created_at)} (${token.key})`}
                >
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
