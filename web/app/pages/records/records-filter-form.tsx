import type { RecordType } from '@wrs/client';
import { useState } from 'preact/hooks';
import { FilterPanel } from '../../components/filter-panel';
import { TIMESTAMP_EXAMPLE } from '../../components/query-words';
import { RECORD_KINDS } from './record-names';
import { SORTS, TIME_FILTERS, filterParams, type RecordsFilters, type RecordsSort, type TimeFilterName } from './records-query';

interface RecordsFilterFormProps {
  initial: RecordsFilters;
  /** The company's custom types: their IDs and view IDs are offered. */
  recordTypes: RecordType[];
  onApply: (params: Record<string, string>) => void;
}

const NO_FILTERS: RecordsFilters = { record_type: '', view_id: '', time_filter: '', time_value: '', limit: '', order_by: '' };

/** Every filter of GET /v1/records, and the order of the page; the API takes at most one timestamp filter, so one is chosen. */
export function RecordsFilterForm({ initial, recordTypes, onApply }: RecordsFilterFormProps) {
  const [filters, setFilters] = useState(initial);
  const set = (change: Partial<RecordsFilters>) => setFilters((previous) => ({ ...previous, ...change }));
  const views = new Map(recordTypes.flatMap((type) => type.views.map((view) => [view.id, `${view.name} (${type.name})`] as const)));
  return (
    <FilterPanel
      label="Record filters"
      onApply={() => onApply(filterParams(filters))}
      onClear={() => {
        setFilters(NO_FILTERS);
        onApply({});
      }}
    >
      <div class="field">
        <label for="filter-record-type">Record type</label>
        <input
          id="filter-record-type"
          list="record-type-suggestions"
          value={filters.record_type}
          onInput={(e) => set({ record_type: e.currentTarget.value })}
          aria-describedby="filter-record-type-hint"
        />
        <span class="hint" id="filter-record-type-hint">
          A type's ID, such as {recordTypes[0]?.id ?? 'equipment-loan'}, or a kind: {RECORD_KINDS.join(', ')}.
        </span>
        <datalist id="record-type-suggestions">
          {recordTypes.map((type) => (
            <option key={type.id} value={type.id} label={type.name} />
          ))}
          {RECORD_KINDS.map((kind) => (
            <option key={kind} value={kind} label={kind === 'custom' ? 'Every custom record' : undefined} />
          ))}
        </datalist>
      </div>
      <div class="field">
        <label for="filter-view">View</label>
        <input id="filter-view" list="view-suggestions" value={filters.view_id} onInput={(e) => set({ view_id: e.currentTarget.value })} />
        <datalist id="view-suggestions">
          {[...views].map(([id, name]) => (
            <option key={id} value={id} label={name} />
          ))}
        </datalist>
      </div>
      <div class="field">
        <label for="filter-time">Time filter</label>
        <select id="filter-time" value={filters.time_filter} onChange={(e) => set({ time_filter: e.currentTarget.value as TimeFilterName | '' })}>
          <option value="">None</option>
          {TIME_FILTERS.map((filter) => (
            <option key={filter.name} value={filter.name}>
              {filter.label}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="filter-time-value">Date</label>
        <input
          id="filter-time-value"
          value={filters.time_value}
          disabled={!filters.time_filter}
          placeholder={TIMESTAMP_EXAMPLE}
          aria-describedby="filter-time-value-hint"
          onInput={(e) => set({ time_value: e.currentTarget.value })}
        />
        <span class="hint" id="filter-time-value-hint">
          A date such as {TIMESTAMP_EXAMPLE} (midnight UTC), or a date and time such as {TIMESTAMP_EXAMPLE}T17:00Z.
        </span>
      </div>
      <div class="field">
        <label for="filter-limit">Records per page</label>
        <input
          id="filter-limit"
          type="number"
          min={1}
          max={100}
          placeholder="100"
          value={filters.limit}
          onInput={(e) => set({ limit: e.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for="filter-sort">Order</label>
        <select
          id="filter-sort"
          value={filters.order_by}
          aria-describedby="filter-sort-hint"
          onChange={(e) => set({ order_by: e.currentTarget.value as RecordsSort })}
        >
          {SORTS.map((sort) => (
            <option key={sort.value} value={sort.value}>
              {sort.label}
            </option>
          ))}
        </select>
        <span class="hint" id="filter-sort-hint">
          Every page follows this order; ties go by record ID.
        </span>
      </div>
    </FilterPanel>
  );
}
