import { invalidQuery } from '../../errors/app-error.js';
import { boundedList, namesWithMore } from '../../errors/item-problems.js';
import { parseTimestampFilter } from '../../lib/timestamps.js';
import { unknownParameterProblem } from '../operator-suffix.js';
import {
  EVENT_FILTER_PARAMETERS,
  EVENTS_LIMIT,
  EVENTS_MAX_PAGE,
  filterOperators,
  INTEGER_FILTER_BOUNDS,
  ORDER_BY_VALUES,
  parameterName,
  type FilterField,
  type FilterOperator,
} from './event-fields.js';
import type { EventScalarField } from './event.js';

export interface EventFilter {
  readonly field: FilterField;
  readonly operator: FilterOperator;
  /** A string (timestamps normalised to ISO 8601 UTC with ms) or, for flow_session, an integer. */
  readonly value: string | number;
}

export interface EventOrder {
  readonly field: EventScalarField;
  readonly direction: 'asc' | 'desc';
}

/** A parsed GET /v1/events request: every filter is ANDed. */
export interface EventListQuery {
  readonly filters: readonly EventFilter[];
  readonly order: EventOrder;
  readonly limit: number;
  readonly offset: number;
}

/** The query string as it arrives: a repeated name holds all its values. */
export type RawEventQuery = Readonly<Record<string, string | readonly string[] | undefined>>;

export const DEFAULT_EVENT_ORDER: EventOrder = { field: 'created_at', direction: 'asc' };

/**
 * Every filter parameter with its operator, in the order filters are listed (which keeps a
 * query's SQL and ETag the same whatever order its parameters came in). Named once: a name
 * built afresh for each request would be hashed again for each lookup.
 */
const FILTER_PARAMETER_NAMES = EVENT_FILTER_PARAMETERS.flatMap((parameter) =>
  filterOperators(parameter).map((operator) => ({ parameter, operator, name: parameterName(parameter.name, operator) })),
);

/**
 * Turns the query string of GET /v1/events into a query, refusing it with a 400 when it cannot
 * be answered: parameters are checked (checkEventQueryParameters), timestamps parsed, the
 * user_key alias folded into user_id, order_by split into field and direction.
 */
export function parseEventQuery(raw: RawEventQuery): EventListQuery {
  const params = checkEventQueryParameters(raw);
  const filters: EventFilter[] = [];
  for (const { parameter, operator, name } of FILTER_PARAMETER_NAMES) {
    const text = params.get(name);
    if (text === undefined) continue;
    filters.push({ field: parameter.field, operator, value: filterValue(name, parameter.kind, text) });
  }
  const { limit, offset } = page(params.get('limit'), params.get('page'));
  return { filters: foldUserKey(filters, params), order: parseOrder(params.get('order_by')), limit, offset };
}

function filterValue(name: string, kind: 'string' | 'integer' | 'timestamp', text: string): string | number {
  if (kind === 'integer') {
    const value = Number(text);
    if (!Number.isFinite(value)) throw invalidQuery(`query parameter '${name}' must be an integer`, [name]);
    return value;
  }
  if (kind === 'timestamp') {
    const parsed = parseTimestampFilter(text);
    if (!parsed) {
      throw invalidQuery(`query parameter '${name}' must be an ISO 8601 date (2026-11-21) or date-time with Z or an offset (2026-11-21T15:04:05Z)`, [name]);
    }
    return parsed.iso;
  }
  return text;
}

/** `user_key` is an alias of `user_id`: the same value twice is one filter, two values are a 400. */
function foldUserKey(filters: EventFilter[], params: ReadonlyMap<string, string>): EventFilter[] {
  const userFilters = filters.filter((filter) => filter.field === 'user_id');
  if (userFilters.length < 2) return filters;
  if (params.get('user_id') !== params.get('user_key')) {
    throw invalidQuery("query parameters 'user_id' and 'user_key' name the same filter with different values", ['user_id', 'user_key']);
  }
  return filters.filter((filter) => filter !== userFilters[1]);
}

/** order_by is one of ORDER_BY_VALUES (checked with the other parameters). */
function parseOrder(text: string | undefined): EventOrder {
  if (text === undefined) return DEFAULT_EVENT_ORDER;
  const descending = text.startsWith('-');
  return { field: (descending ? text.slice(1) : text) as EventScalarField, direction: descending ? 'desc' : 'asc' };
}

/** Limit and page are within their bounds (checked with the other parameters) unless written too long to be a number. */
function page(limitText: string | undefined, pageText: string | undefined): { limit: number; offset: number } {
  const limit = limitText === undefined ? EVENTS_LIMIT.default : Number(limitText);
  if (!Number.isFinite(limit)) {
    throw invalidQuery(`query parameter 'limit' must be an integer from ${EVENTS_LIMIT.minimum} to ${EVENTS_LIMIT.maximum}`, ['limit']);
  }
  const pageNumber = pageText === undefined ? 1 : Number(pageText);
  if (!Number.isFinite(pageNumber)) throw invalidQuery(`query parameter 'page' must be an integer from 1 to ${EVENTS_MAX_PAGE}`, ['page']);
  return { limit, offset: (pageNumber - 1) * limit };
}

type ParameterRule = { readonly kind: 'string' | 'order' } | { readonly kind: 'integer'; readonly minimum: number; readonly maximum: number };

/** Every parameter GET /v1/events takes, in the order a refusal names their problems. */
const PARAMETER_RULES: ReadonlyMap<string, ParameterRule> = new Map<string, ParameterRule>([
  ...EVENT_FILTER_PARAMETERS.flatMap((parameter) =>
    filterOperators(parameter).map((operator): [string, ParameterRule] => [
      parameterName(parameter.name, operator),
      parameter.kind === 'integer' ? { kind: 'integer', ...INTEGER_FILTER_BOUNDS } : { kind: 'string' },
    ]),
  ),
  ['limit', { kind: 'integer', minimum: EVENTS_LIMIT.minimum, maximum: EVENTS_LIMIT.maximum }],
  ['page', { kind: 'integer', minimum: 1, maximum: EVENTS_MAX_PAGE }],
  ['order_by', { kind: 'order' }],
]);

const RULE_ORDER = new Map([...PARAMETER_RULES.keys()].map((name, index) => [name, index]));

const DECIMAL_INTEGER = /^-?\d+$/;

/**
 * Checks the raw query string against the parameters the list takes and returns each value:
 * a 400 names every unknown or repeated parameter and every value out of its bounds. An
 * integer must be written as a decimal integer ('0x10', '1e3' or ' 5' are not); those are
 * refused first, on their own.
 */
function checkEventQueryParameters(raw: RawEventQuery): ReadonlyMap<string, string> {
  const notDecimal = Object.keys(raw).filter((name) => {
    const value = raw[name];
    return PARAMETER_RULES.get(name)?.kind === 'integer' && typeof value === 'string' && !DECIMAL_INTEGER.test(value);
  });
  if (notDecimal.length > 0) {
    throw invalidQuery(notDecimal.map((name) => `query parameter '${name}' must be an integer`).join('; '), notDecimal);
  }

  const problems = new Map<string, string>();
  // The parameters given, not every one the list takes: a query names a few of a hundred.
  const given: string[] = [];
  for (const name of Object.keys(raw)) {
    if (PARAMETER_RULES.has(name)) given.push(name);
    else problems.set(name, unknownParameterProblem(name, PARAMETER_RULES));
  }
  const values = new Map<string, string>();
  if (given.length > 1) given.sort((a, b) => RULE_ORDER.get(a)! - RULE_ORDER.get(b)!);
  for (const name of given) {
    const rule = PARAMETER_RULES.get(name)!;
    const value = raw[name];
    if (value === undefined) continue;
    const problem = typeof value === 'string' ? valueProblem(rule, value) : 'may be given only once';
    if (problem === undefined) values.set(name, value as string);
    else problems.set(name, `query parameter '${name}' ${problem}`);
  }
  if (problems.size > 0) throw invalidQuery(namesWithMore([...problems.values()], '; '), boundedList([...problems.keys()]).listed);
  return values;
}

function valueProblem(rule: ParameterRule, value: string): string | undefined {
  if (rule.kind === 'integer') {
    const number = Number(value);
    // A decimal of over 308 digits is ±Infinity: parseEventQuery refuses it, in its own words.
    if (!Number.isFinite(number)) return undefined;
    if (number < rule.minimum) return `must be >= ${rule.minimum}`;
    if (number > rule.maximum) return `must be <= ${rule.maximum}`;
    return undefined;
  }
  if (rule.kind === 'order') return ORDER_BY_VALUES.includes(value) ? undefined : `must be one of: ${namesWithMore(ORDER_BY_VALUES)}`;
  // PostgreSQL text cannot hold NUL (the HTTP layer refuses it earlier, for every route).
  return value.includes('\u0000') ? 'must match pattern "^[^\\u0000]*$"' : undefined;
}
