import { invalidQuery } from '../../errors/app-error.js';
import { parseTimestampFilter } from '../../lib/timestamps.js';
import {
  EVENT_FILTER_PARAMETERS,
  EVENT_SCALAR_FIELDS,
  EVENTS_LIMIT,
  EVENTS_MAX_PAGE,
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

/** The query string after schema validation: names are known, values are scalars. */
export type EventQueryParams = Readonly<Record<string, string | number | undefined>>;

export const DEFAULT_EVENT_ORDER: EventOrder = { field: 'created_at', direction: 'asc' };

/**
 * Turns validated query parameters into a query: timestamps are parsed, the user_key alias is
 * folded into user_id, order_by is split into field and direction.
 */
export function parseEventQuery(params: EventQueryParams): EventListQuery {
  const filters: EventFilter[] = [];
  for (const parameter of EVENT_FILTER_PARAMETERS) {
    const operators: FilterOperator[] = parameter.exact ? ['eq', ...parameter.operators] : [...parameter.operators];
    for (const operator of operators) {
      const name = parameterName(parameter.name, operator);
      const raw = params[name];
      if (raw === undefined) continue;
      filters.push({ field: parameter.field, operator, value: filterValue(name, parameter.kind, raw) });
    }
  }
  return {
    filters: foldUserKey(filters, params),
    order: parseOrder(params.order_by),
    ...page(params.limit, params.page),
  };
}

function filterValue(name: string, kind: 'string' | 'integer' | 'timestamp', raw: string | number): string | number {
  if (kind === 'integer') {
    const value = Number(raw);
    if (!Number.isSafeInteger(value)) throw invalidQuery(`query parameter '${name}' must be an integer`, [name]);
    return value;
  }
  const text = String(raw);
  if (kind === 'timestamp') {
    const parsed = parseTimestampFilter(text);
    if (!parsed) {
      throw invalidQuery(
        `query parameter '${name}' must be an ISO 8601 date (2026-11-21) or date-time with Z or an offset (2026-11-21T15:04:05Z)`,
        [name],
      );
    }
    return parsed.iso;
  }
  return text;
}

/** `user_key` is an alias of `user_id`: the same value twice is one filter, two values are a 400. */
function foldUserKey(filters: EventFilter[], params: EventQueryParams): EventFilter[] {
  const userFilters = filters.filter((filter) => filter.field === 'user_id');
  if (userFilters.length < 2) return filters;
  if (params.user_id !== params.user_key) {
    throw invalidQuery("query parameters 'user_id' and 'user_key' name the same filter with different values", [
      'user_id',
      'user_key',
    ]);
  }
  return filters.filter((filter) => filter !== userFilters[1]);
}

function parseOrder(raw: string | number | undefined): EventOrder {
  if (raw === undefined) return DEFAULT_EVENT_ORDER;
  const text = String(raw);
  const descending = text.startsWith('-');
  const field = descending ? text.slice(1) : text;
  if (!Object.hasOwn(EVENT_SCALAR_FIELDS, field)) {
    throw invalidQuery(`query parameter 'order_by' must be an event field, optionally prefixed with '-': got '${text}'`, ['order_by']);
  }
  return { field: field as EventScalarField, direction: descending ? 'desc' : 'asc' };
}

function page(rawLimit: string | number | undefined, rawPage: string | number | undefined): { limit: number; offset: number } {
  const limit = rawLimit === undefined ? EVENTS_LIMIT.default : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < EVENTS_LIMIT.minimum || limit > EVENTS_LIMIT.maximum) {
    throw invalidQuery(`query parameter 'limit' must be an integer from ${EVENTS_LIMIT.minimum} to ${EVENTS_LIMIT.maximum}`, ['limit']);
  }
  const pageNumber = rawPage === undefined ? 1 : Number(rawPage);
  if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > EVENTS_MAX_PAGE) {
    throw invalidQuery(`query parameter 'page' must be an integer from 1 to ${EVENTS_MAX_PAGE}`, ['page']);
  }
  return { limit, offset: (pageNumber - 1) * limit };
}
