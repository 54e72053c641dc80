import type { Exact } from '../../lib/type-checks.js';
import type { ApiEvent, EventScalarField } from './event.js';

/**
 * The one table of what GET /v1/events can filter and sort on. The querystring schema (and so
 * the OpenAPI document), the query parser and the storage filter compiler all derive from it.
 */

/** Every scalar field of an Event, with whether it may be null; version_object is not scalar. */
export const EVENT_SCALAR_FIELDS = {
  id: { nullable: false, kind: 'string' },
  company_id: { nullable: false, kind: 'string' },
  connection_id: { nullable: true, kind: 'string' },
  connection_key: { nullable: true, kind: 'string' },
  created_at: { nullable: false, kind: 'timestamp' },
  excluded: { nullable: false, kind: 'boolean' },
  flow_id: { nullable: true, kind: 'string' },
  flow_key: { nullable: true, kind: 'string' },
  flow_session: { nullable: true, kind: 'integer' },
  like_value: { nullable: true, kind: 'number' },
  seconds_active: { nullable: true, kind: 'number' },
  seconds_running: { nullable: true, kind: 'number' },
  selected_decision: { nullable: true, kind: 'string' },
  step_key: { nullable: true, kind: 'string' },
  text: { nullable: true, kind: 'string' },
  type: { nullable: false, kind: 'string' },
  updated_at: { nullable: false, kind: 'timestamp' },
  user_id: { nullable: true, kind: 'string' },
  version_id: { nullable: true, kind: 'string' },
  version_key: { nullable: true, kind: 'string' },
} as const satisfies { readonly [F in EventScalarField]: ScalarTraits<ApiEvent[F]> };

/** What the Event schema says of a field's value: whether it may be null, and what it holds. */
interface ScalarTraits<T> {
  readonly nullable: null extends T ? true : false;
  readonly kind: NonNullable<T> extends boolean ? 'boolean' : NonNullable<T> extends number ? 'integer' | 'number' : 'string' | 'timestamp';
}

export const EVENT_SORT_FIELDS = Object.keys(EVENT_SCALAR_FIELDS) as EventScalarField[];

export type ComparisonOperator = 'gt' | 'gte' | 'lt' | 'lte';
export type FilterOperator = 'eq' | 'contains' | ComparisonOperator;
export const COMPARISONS: readonly ComparisonOperator[] = ['gt', 'gte', 'lt', 'lte'];

/** The event fields a filter may name. */
export type FilterField = 'connection_key' | 'type' | 'flow_key' | 'flow_session' | 'step_key' | 'selected_decision' | 'user_id' | 'version_key' | 'created_at';
true satisfies Exact<Extract<FilterField, EventScalarField>, FilterField>;

/** The fields whose `__contains` is served by the dictionary of distinct values. */
export const CONTAINS_FIELDS = ['connection_key', 'flow_key', 'step_key', 'version_key'] as const;
export type ContainsField = (typeof CONTAINS_FIELDS)[number];

export interface FilterParameter {
  /** Query parameter name (before any `__operator` suffix). */
  readonly name: string;
  /** The event field it filters; `user_key` is an alias of `user_id`. */
  readonly field: FilterField;
  readonly kind: 'string' | 'integer' | 'timestamp';
  /** Whether the bare name (exact match) is accepted. */
  readonly exact: boolean;
  /** Operator suffixes the parameter takes. */
  readonly operators: readonly Exclude<FilterOperator, 'eq'>[];
  readonly description: string;
}

const KEY_OPERATORS = ['contains', ...COMPARISONS] as const;

export const EVENT_FILTER_PARAMETERS: readonly FilterParameter[] = [
  { name: 'connection_key', field: 'connection_key', kind: 'string', exact: true, operators: KEY_OPERATORS, description: 'connection key' },
  { name: 'type', field: 'type', kind: 'string', exact: true, operators: [], description: 'event type, e.g. user_flow_session_started' },
  { name: 'flow_key', field: 'flow_key', kind: 'string', exact: true, operators: KEY_OPERATORS, description: 'flow key' },
  { name: 'flow_session', field: 'flow_session', kind: 'integer', exact: true, operators: COMPARISONS, description: 'flow session number' },
  { name: 'step_key', field: 'step_key', kind: 'string', exact: true, operators: KEY_OPERATORS, description: 'step key' },
  {
    name: 'selected_decision',
    field: 'selected_decision',
    kind: 'string',
    exact: true,
    operators: [],
    description: 'title of the decision branch chosen on a Decision step',
  },
  { name: 'user_id', field: 'user_id', kind: 'string', exact: true, operators: [], description: 'UUID of the user' },
  { name: 'user_key', field: 'user_id', kind: 'string', exact: true, operators: [], description: 'alias of user_id' },
  { name: 'version_key', field: 'version_key', kind: 'string', exact: true, operators: KEY_OPERATORS, description: 'flow version key' },
  {
    name: 'created_at',
    field: 'created_at',
    kind: 'timestamp',
    exact: false,
    operators: COMPARISONS,
    description: 'creation time (extension, for incremental sync): ISO 8601 date or date-time with Z or an offset',
  },
];

/** Integer filters (flow_session) take integers both databases hold exactly. */
export const INTEGER_FILTER_BOUNDS = { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER } as const;
export const EVENTS_LIMIT = { default: 100, minimum: 1, maximum: 10_000 } as const;
/** Bounds page so that (page - 1) * limit stays an exact integer on both databases. */
export const EVENTS_MAX_PAGE = 10_000_000;

/** What order_by takes: a sort field, ascending, or with `-` descending. */
export const ORDER_BY_VALUES: readonly string[] = EVENT_SORT_FIELDS.flatMap((field) => [field, `-${field}`]);

/** The operators a filter parameter takes, `eq` (the bare name) first when it takes it. */
export function filterOperators(parameter: FilterParameter): FilterOperator[] {
  return parameter.exact ? ['eq', ...parameter.operators] : [...parameter.operators];
}

/** The query parameter of a filter: `flow_key` for eq, `flow_key__gt` otherwise. */
export function parameterName(name: string, operator: FilterOperator): string {
  return operator === 'eq' ? name : `${name}__${operator}`;
}
