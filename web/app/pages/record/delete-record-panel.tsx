import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { call } from '../../../shared/api';
import type { RecordVersion } from '../../../shared/record-version';
import { signedOutOnUnauthorized, useSessionEnded } from '../../components/session-expiry';
import { useConsole } from '../../console-context';

/** How the confirmation names the record: its type's name (or kind) and its ID. */
function recordName(version: RecordVersion): string {
  return `${version.type?.name ?? version.record.record_type} record ${version.record.id}`;
}

/**
 * Deletes the record after a confirmation that names it, with If-Match set to the version on
 * screen (a record changed meanwhile is kept: the page says so), then returns to the board.
 */
export function DeleteRecordPanel({ version }: { version: RecordVersion }) {
  const { client } = useConsole();
  const sessionEnded = useSessionEnded();
  const { route } = useLocation();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const name = recordName(version);

  async function remove() {
    setBusy(true);
    setError(undefined);
    const { record, etag } = version;
    const result = await call(() =>
      client.DELETE('/v1/records/{record}', { params: { path: { record: record.id }, header: etag ? { 'if-match': etag } : {} } }),
    );
    setBusy(false);
    if (result.ok) {
      const board = typeof record.uid === 'string' && record.record_type === 'custom' ? `/app/?type=${encodeURIComponent(record.uid)}` : '/app/';
      route(board);
      return;
    }
    if (signedOutOnUnauthorized(result.problem, sessionEnded)) return;
    setConfirming(false);
    setError(
      result.response?.status === 412
        ? 'The record changed since this page loaded it, so it was not deleted. Reload the record, check it, and delete it again if you still mean to.'
        : `The record was not deleted: ${result.problem.message}`,
    );
  }

  return (
    <section class="card" aria-labelledby="delete-record-heading">
      <h2 id="delete-record-heading">Delete</h2>
      <p class="muted">Deleting removes the record, its files, and its form links; other records stop naming it. It cannot be undone.</p>
      {error && (
        <div class="notice error" role="alert">
          {error}
        </div>
      )}
      {!confirming && (
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          Delete this record
        </button>
      )}
      {confirming && (
        // biome-ignore lint/a11y/useSemanticElements: a confirmation row of a message and two buttons, not form fields; a fieldset would bring its own border and legend
        <div class="notice warning" role="group" aria-label={`Confirm deleting ${name}`}>
          <p>Delete {name}? Its files and form links go with it, and it cannot be undone.</p>
          <div class="row">
            <button type="button" class="danger" disabled={busy} onClick={remove}>
              Yes, delete {version.record.id}
            </button>
            <button type="button" disabled={busy} onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
