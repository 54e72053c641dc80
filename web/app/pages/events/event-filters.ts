import type { operations } from '@wrs/client';

/** The query of GET /v1/events as the typed client declares it. */
export type EventsQuery = NonNullable<operations['listEvents']['parameters']['query']>;
export type OrderBy = NonNullable<EventsQuery['order_by']>;

export type FilterOperator = 'eq' | 'contains' | 'gt' | 'gte' | 'lt' | 'lte';
export type ValueKind = 'text' | 'integer' | 'datetime';

export interface FilterParameter {
  /** The query parameter name before any `__operator` suffix. */
  readonly name: string;
  readonly label: string;
  readonly kind: ValueKind;
  /** Operators the API takes for it, `eq` being the bare name. */
  readonly operators: readonly FilterOperator[];
}

const KEY_OPERATORS: readonly FilterOperator[] = ['eq', 'contains', 'gt', 'gte', 'lt', 'lte'];
const COMPARISONS: readonly FilterOperator[] = ['gt', 'gte', 'lt', 'lte'];

/** Every filter GET /v1/events takes, with the operator suffixes the contract gives each. */
export const FILTER_PARAMETERS: readonly FilterParameter[] = [
  { name: 'type', label: 'Type', kind: 'text', operators: ['eq'] },
  { name: 'flow_key', label: 'Flow key', kind: 'text', operators: KEY_OPERATORS },
  { name: 'flow_session', label: 'Flow session', kind: 'integer', operators: ['eq', ...COMPARISONS] },
  { name: 'step_key', label: 'Step key', kind: 'text', operators: KEY_OPERATORS },
  { name: 'selected_decision', label: 'Selected decision', kind: 'text', operators: ['eq'] },
  { name: 'connection_key', label: 'Connection key', kind: 'text', operators: KEY_OPERATORS },
  { name: 'version_key', label: 'Version key', kind: 'text', operators: KEY_OPERATORS },
  { name: 'user_id', label: 'User ID', kind: 'text', operators: ['eq'] },
  { name: 'user_key', label: 'User key (alias of user ID)', kind: 'text', operators: ['eq'] },
  { name: 'created_at', label: 'Created at', kind: 'datetime', operators: COMPARISONS },
];

export const OPERATOR_LABELS: Record<FilterOperator, string> = {
  eq: 'equals',
  contains: 'contains',
  gt: 'greater than',
  gte: 'at least',
  lt: 'less than',
  lte: 'at most',
};

/** Every scalar event field, which order_by takes ascending or, with `-`, descending. */
export const SORT_FIELDS = [
  'created_at',
  'updated_at',
  'type',
  'id',
  'flow_key',
  'flow_session',
  'flow_id',
  'step_key',
  'selected_decision',
  'connection_key',
  'connection_id',
  'version_key',
  'version_id',
  'user_id',
  'like_value',
  'seconds_active',
  'seconds_running',
  'text',
  'excluded',
  'company_id',
] as const satisfies readonly OrderBy[];
export type SortField = (typeof SORT_FIELDS)[number];

/** The order fields in words; the API's names stay in the address. */
export const SORT_FIELD_LABELS: Record<SortField, string> = {
  created_at: 'Created',
  updated_at: 'Updated',
  type: 'Type',
  id: 'Event ID',
  flow_key: 'Flow key',
  flow_session: 'Flow session',
  flow_id: 'Flow ID',
  step_key: 'Step key',
  selected_decision: 'Selected decision',
  connection_key: 'Connection key',
  connection_id: 'Connection ID',
  version_key: 'Version key',
  version_id: 'Version ID',
  user_id: 'User ID',
  like_value: 'Like value',
  seconds_active: 'Seconds active',
  seconds_running: 'Seconds running',
  text: 'Text',
  excluded: 'Excluded',
  company_id: 'Company ID',
};

export const PAGE_SIZES = [25, 50, 100, 250, 500, 1000] as const;
export const DEFAULT_LIMIT = 100;
/** Newest first, as the checks list opens. */
export const DEFAULT_ORDER: OrderBy = '-created_at';

export interface FilterRow {
  /** Keeps a row's inputs in place while rows above it are removed. */
  readonly key: number;
  readonly name: string;
  readonly operator: FilterOperator;
  /** The value as the API takes it (a datetime as ISO 8601 UTC). */
  readonly value: string;
}

/** What the explorer shows: filters, order and page, exactly what the address holds. */
export interface ExplorerState {
  readonly filters: readonly FilterRow[];
  readonly orderBy: OrderBy;
  readonly limit: number;
  readonly page: number;
}

let nextRowKey = 1;
export function newFilterRow(name = 'type', operator: FilterOperator = 'eq', value = ''): FilterRow {
  return { key: nextRowKey++, name, operator, value };
}

export function filterParameter(name: string): FilterParameter {
  return FILTER_PARAMETERS.find((parameter) => parameter.name === name) ?? FILTER_PARAMETERS[0]!;
}

/** `flow_key` for eq, `flow_key__gt` otherwise. */
export function parameterName(row: Pick<FilterRow, 'name' | 'operator'>): string {
  return row.operator === 'eq' ? row.name : `${row.name}__${row.operator}`;
}

// The service's OPERATOR_SUFFIX (src/domain/operator-suffix.ts): web/ imports nothing from src/.
const SUFFIXED = /^(.+)__(contains|gt|gte|lt|lte)$/;
const isSortField = (value: string): value is SortField => (SORT_FIELDS as readonly string[]).includes(value);

/** Reads the explorer state from the address's query; what it does not know is left out. */
export function stateFromQuery(query: Record<string, string>): ExplorerState {
  const filters: FilterRow[] = [];
  for (const [key, value] of Object.entries(query)) {
    const suffixed = SUFFIXED.exec(key);
    const name = suffixed ? suffixed[1]! : key;
    const operator = (suffixed ? suffixed[2] : 'eq') as FilterOperator;
    const parameter = FILTER_PARAMETERS.find((candidate) => candidate.name === name);
    if (parameter?.operators.includes(operator)) filters.push(newFilterRow(name, operator, value));
  }
  const order = query.order_by ?? DEFAULT_ORDER;
  const orderBy = isSortField(order.replace(/^-/, '')) ? (order as OrderBy) : DEFAULT_ORDER;
  return { filters, orderBy, limit: positiveInteger(query.limit) ?? DEFAULT_LIMIT, page: positiveInteger(query.page) ?? 1 };
}

/** The address's query (and the API's) for a state; defaults are left out to keep links short. */
export function queryOfState(state: ExplorerState): URLSearchParams {
  const params = new URLSearchParams();
  for (const row of state.filters) if (row.value !== '') params.append(parameterName(row), row.value);
  if (state.orderBy !== DEFAULT_ORDER) params.set('order_by', state.orderBy);
  if (state.limit !== DEFAULT_LIMIT) params.set('limit', String(state.limit));
  if (state.page !== 1) params.set('page', String(state.page));
  return params;
}

/** The typed client's query for a state. */
export function eventsQueryOf(state: ExplorerState): EventsQuery {
  // The keys are the API's parameter names built from the table above, and openapi-fetch sends
  // every value as text anyway: the value typed is passed on unchanged so the API judges it.
  // The order always: the console's default (newest first) is not the API's.
  return { ...Object.fromEntries(queryOfState(state)), order_by: state.orderBy } as unknown as EventsQuery;
}

/** The one event type the live tail can follow: an exact `type` filter, when there is exactly one. */
export function streamTypeOf(state: ExplorerState): string | undefined {
  const types = state.filters.filter((row) => row.name === 'type' && row.operator === 'eq' && row.value !== '');
  return types.length === 1 ? types[0]!.value : undefined;
}

function positiveInteger(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  const value = Number(raw);
  return value >= 1 ? value : undefined;
}
