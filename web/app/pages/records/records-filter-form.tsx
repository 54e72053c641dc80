import type { RecordType } from '@wrs/client';
import { useState } from 'preact/hooks';
import { FilterPanel } from '../../components/filter-panel';
import { TIME_FILTERS, filterParams, type RecordsFilters, type TimeFilterName } from './records-query';

interface RecordsFilterFormProps {
  initial: RecordsFilters;
  /** The company's custom types, whose view IDs the view input suggests. */
  recordTypes: RecordType[];
  onApply: (params: Record<string, string>) => void;
}

/** Every filter of GET /v1/records; the API takes at most one timestamp filter, so one is chosen. */
export function RecordsFilterForm({ initial, recordTypes, onApply }: RecordsFilterFormProps) {
  const [filters, setFilters] = useState(initial);
  const set = (change: Partial<RecordsFilters>) => setFilters((previous) => ({ ...previous, ...change }));
  const viewIds = [...new Set(recordTypes.flatMap((type) => type.views.map((view) => view.id)))];
  return (
    <FilterPanel
      label="Record filters"
      onApply={() => onApply(filterParams(filters))}
      onClear={() => {
        setFilters({ record_type: '', view_id: '', time_filter: '', time_value: '', limit: '' });
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
          custom, uccfiling, infoleaseasset, …
        </span>
        <datalist id="record-type-suggestions">
          <option value="custom" />
          <option value="uccfiling" />
          <option value="infoleaseasset" />
        </datalist>
      </div>
      <div class="field">
        <label for="filter-view">View ID</label>
        <input id="filter-view" list="view-suggestions" value={filters.view_id} onInput={(e) => set({ view_id: e.currentTarget.value })} />
        <datalist id="view-suggestions">
          {viewIds.map((id) => (
            <option key={id} value={id} />
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
        <label for="filter-time-value">Timestamp</label>
        <input
          id="filter-time-value"
          value={filters.time_value}
          disabled={!filters.time_filter}
          placeholder="2026-11-21"
          aria-describedby="filter-time-value-hint"
          onInput={(e) => set({ time_value: e.currentTarget.value })}
        />
        <span class="hint" id="filter-time-value-hint">
          ISO 8601 date (midnight UTC) or date-time with Z or an offset; strict.
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
    </FilterPanel>
  );
}
