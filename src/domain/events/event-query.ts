import { invalidQuery } from '../../errors/app-error.js';
import { parseTimestampFilter } from '../../lib/timestamps.js';
import {
  EVENT_FILTER_PARAMETERS,
  EVENTS_LIMIT,
  EVENTS_MAX_PAGE,
  filterOperators,
  parameterName,
  type FilterField,
  type FilterOperator,
} from './event-fields.js';
import { checkEventQueryParameters, type RawEventQuery } from './event-query-parameters.js';
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
 * be answered: parameters are checked (event-query-parameters.ts), timestamps parsed, the
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
