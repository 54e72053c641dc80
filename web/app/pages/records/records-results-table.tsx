import type { RecordsListResponse } from '@wrs/client';
import { DateTimeText } from '../../components/date-time-text';
import { fieldValueText } from '../../components/field-value-text';
import { StatusBadge } from '../../components/status-badge';

type ListedRecord = RecordsListResponse['results'][number];

/** "Borrower: Northwind · Amount: 25,000 · …": a custom record's fields, or another kind's instance. */
function summaryOf(record: ListedRecord): string {
  const source = record.fields && Object.keys(record.fields).length > 0 ? record.fields : record.instance;
  if (typeof source !== 'object' || source === null) return '—';
  const entries = Object.entries(source as Record<string, unknown>);
  const shown = entries.slice(0, 3).map(([name, value]) => `${name}: ${fieldValueText(value)}`);
  return shown.join(' · ') + (entries.length > 3 ? ' · …' : '');
}

export function RecordsResultsTable({ records }: { records: ListedRecord[] }) {
  return (
    <div class="table-scroll">
      <table class="records-table">
        <caption class="visually-hidden">Records</caption>
        <thead>
          <tr>
            <th scope="col">ID</th>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col">Views</th>
            <th scope="col">Created</th>
            <th scope="col">Updated</th>
            <th scope="col">Fields</th>
          </tr>
        </thead>
        <tbody>
          {records.map((record) => (
            <tr key={record.id} data-record-id={record.id}>
              <td>
                <a class="mono" href={`/app/records/${encodeURIComponent(record.id)}`}>
                  {record.id}
                </a>
              </td>
              <td>
                {record.record_type}
                {typeof record.uid === 'string' && <span class="muted"> ({record.uid})</span>}
              </td>
              <td>
                <StatusBadge status={record.status} />
              </td>
              <td>{record.views.length > 0 ? record.views.join(', ') : <span class="muted">—</span>}</td>
              <td>
                <DateTimeText value={record.created_at} />
              </td>
              <td>
                <DateTimeText value={record.updated_at} />
              </td>
              <td class="records-summary">{summaryOf(record)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
