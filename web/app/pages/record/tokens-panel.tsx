import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { RecordTokenSummary } from '@wrs/client';
import { call } from '../../../shared/api';
import { useConsole } from '../../console-context';
import { DateTimeText, formatDateTime } from '../../components/date-time-text';
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
export function TokensPanel({
  recordId,
  onAction,
}: {
  recordId: string /** Something happened on the page besides editing the fields. */;
  onAction?: () => void;
}) {
  const { client } = useConsole();
  const sessionEnded = useSessionEnded();
  const [tokens, setTokens] = useState<RecordTokenSummary[]>();
  const [expiresIn, setExpiresIn] = useState(86_400);
  const [label, setLabel] = useState('');
  const [minted, setMinted] = useState<MintedLink>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState<string>();
  const [confirming, setConfirming] = useState<RecordTokenSummary>();

  const refresh = useCallback(async () => {
    const result = await call(() => client.GET('/v1/records/{record}/tokens', { params: { path: { record: recordId } }, cache: 'no-store' }));
    if (result.ok) setTokens(result.data.results);
    else if (!signedOutOnUnauthorized(result.problem, sessionEnded)) setError(`The form links could not be listed: ${result.problem.message}`);
  }, [client, recordId, sessionEnded]);
  useEffect(() => void refresh(), [refresh]);

  async function mint(event: Event) {
    event.preventDefault();
    onAction?.();
    setBusy(true);
    setError(undefined);
    setStatus(undefined);
    setConfirming(undefined);
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
    setBusy(true);
    const result = await call(() => client.DELETE('/v1/records/{record}/tokens/{key}', { params: { path: { record: recordId, key } } }));
    setBusy(false);
    setConfirming(undefined);
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
      <TokenList
        tokens={tokens}
        onRevoke={(token) => {
          onAction?.();
          setStatus(undefined);
          setConfirming(token);
        }}
      />
      {confirming && (
        <RevokeConfirmation token={confirming} busy={busy} onConfirm={() => void revoke(confirming.key)} onCancel={() => setConfirming(undefined)} />
      )}
    </section>
  );
}

function TokenList({ tokens, onRevoke }: { tokens: RecordTokenSummary[] | undefined; onRevoke(token: RecordTokenSummary): void }) {
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
              <td>
                <DateTimeText value={token.created_at} />
              </td>
              <td>
                <DateTimeText value={token.expires_at} />
              </td>
              <td>{token.user_id}</td>
              <td>
                <button type="button" class="danger" onClick={() => onRevoke(token)} aria-label={`Revoke the link ${linkName(token)}`}>
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

/** "for J. Smith, borrower, created 21 Nov 2026, 15:04 UTC, expiring …": how a link is told apart from the others. */
function linkName(token: RecordTokenSummary): string {
  return `${token.label ? `for ${token.label}, ` : ''}created ${formatDateTime(token.created_at)}, expiring ${formatDateTime(token.expires_at)}`;
}

function RevokeConfirmation({ token, busy, onConfirm, onCancel }: { token: RecordTokenSummary; busy: boolean; onConfirm(): void; onCancel(): void }) {
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => confirm.current?.focus(), [token.key]);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a confirmation row of a message and two buttons, not form fields; a fieldset would bring its own border and legend
    <div class="notice warning revoke-confirmation" role="group" aria-label="Confirm revoking a form link">
      <p>Revoke the form link {linkName(token)}? Whoever has it can no longer open the record; this cannot be undone.</p>
      <div class="row">
        <button type="button" class="danger" ref={confirm} disabled={busy} onClick={onConfirm}>
          Yes, revoke this link
        </button>
        <button type="button" disabled={busy} onClick={onCancel}>
          Keep it
        </button>
      </div>
    </div>
  );
}
