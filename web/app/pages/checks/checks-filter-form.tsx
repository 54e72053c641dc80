import { useState } from 'preact/hooks';
import { FilterPanel } from '../../components/filter-panel';
import { TIMESTAMP_EXAMPLE } from '../../components/query-words';
import { DATE_OPERATORS, MAIL_TYPES, NO_CHECK_FILTERS, SORTS, checkFilterParams, type ChecksFilters, type DateCondition } from './checks-query';

/** Every filter of GET /v1/checks: limit, one condition per date, scheduled, mail type and order. */
export function ChecksFilterForm({ initial, onApply }: { initial: ChecksFilters; onApply: (params: Record<string, string>) => void }) {
  const [filters, setFilters] = useState(initial);
  const set = (change: Partial<ChecksFilters>) => setFilters((previous) => ({ ...previous, ...change }));
  return (
    <FilterPanel
      label="Check filters"
      onApply={() => onApply(checkFilterParams(filters))}
      onClear={() => {
        setFilters(NO_CHECK_FILTERS);
        onApply({});
      }}
    >
      <DateConditionField id="filter-created" label="Created" condition={filters.date_created} onChange={(date_created) => set({ date_created })} />
      <DateConditionField id="filter-send-date" label="Send date" condition={filters.send_date} onChange={(send_date) => set({ send_date })} />
      <div class="field">
        <label for="filter-scheduled">Scheduled</label>
        <select id="filter-scheduled" value={filters.scheduled} onChange={(e) => set({ scheduled: e.currentTarget.value as ChecksFilters['scheduled'] })}>
          <option value="">Any</option>
          <option value="true">Scheduled (sent later than created)</option>
          <option value="false">Not scheduled (sent when created)</option>
        </select>
      </div>
      <div class="field">
        <label for="filter-mail-type">Mail type</label>
        <select id="filter-mail-type" value={filters.mail_type} onChange={(e) => set({ mail_type: e.currentTarget.value })}>
          <option value="">Any</option>
          {MAIL_TYPES.map((type) => (
            <option key={type.value} value={type.value}>
              {type.label}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="filter-sort">Order</label>
        <select id="filter-sort" value={filters.sort_by} onChange={(e) => set({ sort_by: e.currentTarget.value })}>
          {SORTS.map((sort) => (
            <option key={sort.value} value={sort.value}>
              {sort.label}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="filter-check-limit">Checks per page</label>
        <input
          id="filter-check-limit"
          type="number"
          min={1}
          max={10000}
          placeholder="100"
          value={filters.limit}
          onInput={(e) => set({ limit: e.currentTarget.value })}
        />
      </div>
    </FilterPanel>
  );
}

function DateConditionField({
  id,
  label,
  condition,
  onChange,
}: {
  id: string;
  label: string;
  condition: DateCondition;
  onChange: (condition: DateCondition) => void;
}) {
  return (
    <fieldset class="field date-condition">
      <legend>{label}</legend>
      <div class="row">
        <select
          aria-label={`${label}: comparison`}
          value={condition.operator}
          onChange={(e) => onChange({ ...condition, operator: e.currentTarget.value as DateCondition['operator'] })}
        >
          {DATE_OPERATORS.map((operator) => (
            <option key={operator.suffix} value={operator.suffix}>
              {operator.label}
            </option>
          ))}
        </select>
        <input
          id={id}
          aria-label={`${label}: date`}
          placeholder={TIMESTAMP_EXAMPLE}
          value={condition.value}
          aria-describedby={`${id}-hint`}
          onInput={(e) => onChange({ ...condition, value: e.currentTarget.value })}
        />
      </div>
      <span class="hint" id={`${id}-hint`}>
        A date such as {TIMESTAMP_EXAMPLE}, or a date and time such as {TIMESTAMP_EXAMPLE}T17:00Z; “on” a date means that whole UTC day.
      </span>
    </fieldset>
  );
}
