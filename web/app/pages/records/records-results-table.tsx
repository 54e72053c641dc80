import type { RecordType, RecordsListResponse } from '@wrs/client';
import { DateTimeText } from '../../components/date-time-text';
import { fieldValueText } from '../../components/field-value-text';
import { StatusBadge } from '../../components/status-badge';
import { typeNameOf, viewNameOf } from './record-names';
import type { RecordsSort } from './records-query';

type ListedRecord = RecordsListResponse['results'][number];

/** "Borrower: Northwind · Amount: 25,000 · …": a custom record's fields, or another kind's instance. */
function summaryOf(record: ListedRecord): string {
  const source = record.fields && Object.keys(record.fields).length > 0 ? record.fields : record.instance;
  if (typeof source !== 'object' || source === null) return '—';
  const entries = Object.entries(source as Record<string, unknown>);
  const shown = entries.slice(0, 3).map(([name, value]) => `${name}: ${fieldValueText(value)}`);
  return shown.join(' · ') + (entries.length > 3 ? ' · …' : '');
}

function ariaSort(order: RecordsSort, column: 'created_at' | 'updated_at'): 'ascending' | 'descending' | undefined {
  if ((order.replace('-', '') || 'created_at') !== column) return undefined;
  return order.startsWith('-') ? 'descending' : 'ascending';
}

export function RecordsResultsTable({ records, types, order }: { records: ListedRecord[]; types: readonly RecordType[]; order: RecordsSort }) {
  const byId = new Map(types.map((type) => [type.id, type]));
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
            <th scope="col" aria-sort={ariaSort(order, 'created_at')}>
              Created
            </th>
            <th scope="col" aria-sort={ariaSort(order, 'updated_at')}>
              Updated
            </th>
            <th scope="col">Fields</th>
          </tr>
        </thead>
        <tbody>
          {records.map((record) => {
            const type = typeNameOf(record, byId);
            return (
              <tr key={record.id} data-record-id={record.id}>
                <td>
                  <a class="mono" href={`/app/records/${encodeURIComponent(record.id)}`}>
                    {record.id}
                  </a>
                </td>
                <td>
                  {type.name}
                  {type.id !== undefined && <span class="muted"> ({type.id})</span>}
                </td>
                <td>
                  <StatusBadge status={record.status} />
                </td>
                <td>{record.views.length > 0 ? record.views.map((view) => viewNameOf(view, types)).join(', ') : <span class="muted">—</span>}</td>
                <td>
                  <DateTimeText value={record.created_at} />
                </td>
                <td>
                  <DateTimeText value={record.updated_at} />
                </td>
                <td class="records-summary">{summaryOf(record)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
