import type { EventTypeCount } from '@wrs/client';
import { useEffect, useState } from 'preact/hooks';
import { isoOfLocalInput, localInputOf } from './datetime-input';
import {
  DEFAULT_LIMIT,
  DEFAULT_ORDER,
  FILTER_PARAMETERS,
  OPERATOR_LABELS,
  PAGE_SIZES,
  SORT_FIELDS,
  SORT_FIELD_LABELS,
  filterParameter,
  newFilterRow,
  parameterName,
  type ExplorerState,
  type FilterRow,
  type OrderBy,
} from './event-filters';

/** The API's refusal of the query: its message, and the parameters it names. */
export interface QueryProblem {
  readonly message: string;
  readonly params: readonly string[];
}

interface FilterBuilderProps {
  /** The state the address holds; the form edits a copy until applied. */
  state: ExplorerState;
  problem: QueryProblem | undefined;
  /** The company's event types, offered as values of a type filter. */
  eventTypes: readonly EventTypeCount[];
  onApply(state: ExplorerState): void;
}

const PROBLEM_ID = 'events-query-problem';
const EVENT_TYPES_ID = 'event-type-suggestions';

/** Filter rows (field, operator, value), the order and the page size of GET /v1/events. */
export function FilterBuilder({ state, problem, eventTypes, onApply }: FilterBuilderProps) {
  const [rows, setRows] = useState<readonly FilterRow[]>(state.filters);
  const [orderBy, setOrderBy] = useState<OrderBy>(state.orderBy);
  const [limit, setLimit] = useState(state.limit);
  useEffect(() => {
    setRows(state.filters);
    setOrderBy(state.orderBy);
    setLimit(state.limit);
  }, [state]);

  const invalid = (name: string) => problem?.params.includes(name) ?? false;
  const update = (key: number, change: (row: FilterRow) => FilterRow) => setRows(rows.map((row) => (row.key === key ? change(row) : row)));
  const direction = orderBy.startsWith('-') ? 'desc' : 'asc';
  const sortField = orderBy.replace(/^-/, '');
  const setOrder = (field: string, dir: string) => setOrderBy(`${dir === 'desc' ? '-' : ''}${field}` as OrderBy);

  function submit(event: Event) {
    event.preventDefault();
    onApply({ filters: rows, orderBy, limit, page: 1 });
  }

  return (
    <form class="card filter-builder" onSubmit={submit} noValidate aria-describedby={problem ? PROBLEM_ID : undefined}>
      <h2 id="filters-heading">Filters</h2>
      {problem && (
        <div class="notice error" role="alert" id={PROBLEM_ID}>
          <p>
            <strong>Check the filters:</strong> {problem.message}
          </p>
        </div>
      )}
      {rows.length === 0 && <p class="muted">No filters: every event of the company matches.</p>}
      <ol class="filter-rows" aria-labelledby="filters-heading">
        {rows.map((row, index) => (
          <FilterRowInputs
            key={row.key}
            row={row}
            number={index + 1}
            invalid={invalid(parameterName(row))}
            onChange={(change) => update(row.key, change)}
            onRemove={() => setRows(rows.filter((other) => other.key !== row.key))}
          />
        ))}
      </ol>
      <datalist id={EVENT_TYPES_ID}>
        {eventTypes.map((row) => (
          <option key={row.type} value={row.type} label={`${row.count.toLocaleString()} event${row.count === 1 ? '' : 's'}`} />
        ))}
      </datalist>
      <div class="row filter-actions">
        <button type="button" onClick={() => setRows([...rows, newFilterRow()])}>
          Add filter
        </button>
      </div>
      <div class="row query-options">
        <div class="field">
          <label for="order-field">Order by</label>
          <select id="order-field" value={sortField} aria-invalid={invalid('order_by')} onChange={(e) => setOrder(e.currentTarget.value, direction)}>
            {SORT_FIELDS.map((field) => (
              <option key={field} value={field}>
                {SORT_FIELD_LABELS[field]}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="order-direction">Direction</label>
          <select id="order-direction" value={direction} onChange={(e) => setOrder(sortField, e.currentTarget.value)}>
            <option value="asc">{sortField.endsWith('_at') ? 'Oldest first' : 'Ascending'}</option>
            <option value="desc">{sortField.endsWith('_at') ? 'Newest first' : 'Descending'}</option>
          </select>
        </div>
        <div class="field">
          <label for="page-size">Page size</label>
          <select id="page-size" value={String(limit)} aria-invalid={invalid('limit')} onChange={(e) => setLimit(Number(e.currentTarget.value))}>
            {pageSizesWith(limit).map((size) => (
              <option key={size} value={String(size)}>
                {size}
              </option>
            ))}
          </select>
        </div>
        <div class="filter-submit">
          <button type="submit" class="primary">
            Apply
          </button>
          <button type="button" onClick={() => onApply({ filters: [], orderBy: DEFAULT_ORDER, limit: DEFAULT_LIMIT, page: 1 })}>
            Reset
          </button>
        </div>
      </div>
    </form>
  );
}

interface FilterRowProps {
  row: FilterRow;
  number: number;
  invalid: boolean;
  onChange(change: (row: FilterRow) => FilterRow): void;
  onRemove(): void;
}

function FilterRowInputs({ row, number, invalid, onChange, onRemove }: FilterRowProps) {
  const parameter = filterParameter(row.name);
  const id = `filter-${row.key}`;

  function chooseField(name: string) {
    const next = filterParameter(name);
    onChange((current) => ({
      ...current,
      name,
      operator: next.operators.includes(current.operator) ? current.operator : next.operators[0]!,
      value: next.kind === filterParameter(current.name).kind ? current.value : '',
    }));
  }

  return (
    <li class="filter-row">
      <label class="visually-hidden" for={`${id}-field`}>
        Field of filter {number}
      </label>
      <select id={`${id}-field`} value={row.name} onChange={(e) => chooseField(e.currentTarget.value)}>
        {FILTER_PARAMETERS.map((candidate) => (
          <option key={candidate.name} value={candidate.name}>
            {candidate.label}
          </option>
        ))}
      </select>
      <label class="visually-hidden" for={`${id}-operator`}>
        Operator of filter {number}
      </label>
      <select
        id={`${id}-operator`}
        value={row.operator}
        disabled={parameter.operators.length === 1}
        onChange={(e) => {
          const operator = e.currentTarget.value as FilterRow['operator'];
          onChange((current) => ({ ...current, operator }));
        }}
      >
        {parameter.operators.map((operator) => (
          <option key={operator} value={operator}>
            {OPERATOR_LABELS[operator]}
          </option>
        ))}
      </select>
      <label class="visually-hidden" for={`${id}-value`}>
        Value of filter {number}
      </label>
      <ValueInput
        id={`${id}-value`}
        kind={parameter.kind}
        suggestions={row.name === 'type' ? EVENT_TYPES_ID : undefined}
        value={row.value}
        invalid={invalid}
        onValue={(value) => onChange((current) => ({ ...current, value }))}
      />
      <code class="filter-param muted">{parameterName(row)}</code>
      <button type="button" class="filter-remove" onClick={onRemove}>
        Remove<span class="visually-hidden"> filter {number}</span>
      </button>
    </li>
  );
}

interface ValueInputProps {
  id: string;
  kind: 'text' | 'integer' | 'datetime';
  /** The ID of a datalist of values to offer. */
  suggestions: string | undefined;
  value: string;
  invalid: boolean;
  onValue(value: string): void;
}

function ValueInput({ id, kind, suggestions, value, invalid, onValue }: ValueInputProps) {
  const describedBy = invalid ? PROBLEM_ID : undefined;
  if (kind === 'datetime') {
    return (
      <input
        id={id}
        type="datetime-local"
        step="1"
        value={localInputOf(value)}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        onInput={(e) => onValue(isoOfLocalInput(e.currentTarget.value))}
      />
    );
  }
  if (kind === 'integer') {
    return (
      <input
        id={id}
        type="number"
        step="any"
        inputMode="numeric"
        value={value}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        onInput={(e) => onValue(e.currentTarget.value)}
      />
    );
  }
  return (
    <input
      id={id}
      type="text"
      list={suggestions}
      value={value}
      aria-invalid={invalid}
      aria-describedby={describedBy}
      onInput={(e) => onValue(e.currentTarget.value)}
    />
  );
}

/** The page sizes offered, with the address's own when it is another. */
function pageSizesWith(limit: number): number[] {
  return (PAGE_SIZES as readonly number[]).includes(limit) ? [...PAGE_SIZES] : [...PAGE_SIZES, limit].sort((a, b) => a - b);
}
