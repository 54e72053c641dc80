import { useEffect, useState } from 'preact/hooks';
import { call } from '../shared/api';
import { useOperator } from './operator-context';
import { changesFor, type RecordType, type TypeDraft } from './type-draft';

const SHOWN_IDS = 5;

/** Which records a save applies to (every record that follows the type), and what it changes for them. */
export function RecordsAffected({ typeId, stored, draft, version }: { typeId: string; stored: RecordType | undefined; draft: TypeDraft; version: number }) {
  const { client, company } = useOperator();
  const [records, setRecords] = useState<{ count: number; ids: string[] } | { error: string }>();
  useEffect(() => {
    void call(() =>
      client.GET('/admin/v1/companies/{company}/record-types/{typeId}/records', {
        params: { path: { company, typeId }, query: { limit: SHOWN_IDS } },
      }),
    ).then((result) =>
      setRecords(result.ok ? { count: result.data.count, ids: result.data.results.map((record) => record.id) } : { error: result.problem.message }),
    );
  }, [typeId, version]);

  const changes = changesFor(stored, draft);
  return (
    <section class="notice affected" aria-labelledby="affected-heading" aria-live="polite">
      <h2 id="affected-heading">Records this type applies to</h2>
      {records === undefined && <p class="muted">Counting…</p>}
      {records && 'error' in records && <p>{records.error}</p>}
      {records && 'count' in records && (
        <p data-testid="affected-count">
          {records.count === 0
            ? 'No record follows this type yet.'
            : `${records.count} record${records.count === 1 ? '' : 's'} follow${records.count === 1 ? 's' : ''} this type; saving applies to ${records.count === 1 ? 'it' : 'all of them'}:`}{' '}
          {records.ids.map((id, i) => (
            <span key={id}>
              {i > 0 && ', '}
              <code>{id}</code>
            </span>
          ))}
          {records.count > records.ids.length && ` and ${records.count - records.ids.length} more`}
        </p>
      )}
      {changes.length > 0 && (
        <>
          <h3>What this change does to them</h3>
          <ul>
            {changes.map((change) => (
              <li key={change}>{change}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
