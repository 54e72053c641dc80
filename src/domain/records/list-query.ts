import { invalidQuery } from '../../errors/app-error.js';
import { parseTimestampFilter } from '../../lib/timestamps.js';

/** Default and maximum of `limit`. */
export const MAX_PAGE_SIZE = 100;

export interface TimeFilter {
  readonly column: 'created_at' | 'updated_at';
  readonly bound: 'after' | 'before';
  /** Normalised ISO 8601 UTC. */
  readonly iso: string;
}

/**
 * The order of a records list (an extension: `order_by`, as GET /events takes it): a timestamp
 * column, ascending or descending, ties broken by `id` in the same direction.
 */
export interface RecordOrder {
  readonly column: 'created_at' | 'updated_at';
  readonly descending: boolean;
}

/** The contract's order when `order_by` is absent. */
export const DEFAULT_RECORD_ORDER: RecordOrder = { column: 'created_at', descending: false };

/** What `order_by` accepts, and the order each names. */
export const RECORD_ORDERS = {
  created_at: DEFAULT_RECORD_ORDER,
  '-created_at': { column: 'created_at', descending: true },
  updated_at: { column: 'updated_at', descending: false },
  '-updated_at': { column: 'updated_at', descending: true },
} as const satisfies Record<string, RecordOrder>;

export interface RecordListQuery {
  readonly order: RecordOrder;
  readonly recordType?: string;
  readonly viewId?: string;
  readonly time?: TimeFilter;
  readonly cursor?: { readonly kind: 'next' | 'prev'; readonly id: string };
  readonly limit: number;
  /** The filters (and `limit`, when given) under their canonical names, for the `next`/`prev` links. */
  readonly linkParams: ReadonlyArray<readonly [string, string]>;
}

const TIME_FILTERS = [
  { names: ['created_after', 'createdAfter'], column: 'created_at', bound: 'after' },
  { names: ['created_before', 'createdBefore'], column: 'created_at', bound: 'before' },
  { names: ['updated_after', 'updatedAfter'], column: 'updated_at', bound: 'after' },
  { names: ['updated_before', 'updatedBefore'], column: 'updated_at', bound: 'before' },
] as const satisfies ReadonlyArray<{ names: readonly [string, string]; column: TimeFilter['column']; bound: TimeFilter['bound'] }>;

type TimeFilterParam = (typeof TIME_FILTERS)[number]['names'][number];

/** Every parameter GET /records accepts; the route schema names exactly these. */
export type RecordListParam = 'record_type' | 'recordType' | 'view_id' | 'viewId' | TimeFilterParam | 'next' | 'prev' | 'limit' | 'order_by';

/**
 * The query of GET /records once the route schema has checked its shape: every value a
 * non-empty string, `limit` an integer from 1 to MAX_PAGE_SIZE, no other names.
 */
export type RawRecordListQuery = {
  readonly [name in Exclude<RecordListParam, 'limit'>]?: string;
} & { readonly limit?: number };

/**
 * Applies the rules of GET /records: aliases, at most one timestamp filter (a snake name and
 * its camel alias count as two), next and prev never together, timestamps in ISO 8601.
 */
export function parseRecordListQuery(raw: RawRecordListQuery): RecordListQuery {
  const linkParams: Array<[string, string]> = [];
  const recordType = aliased(raw, 'record_type', 'recordType');
  if (recordType !== undefined) linkParams.push(['record_type', recordType]);
  const viewId = aliased(raw, 'view_id', 'viewId');
  if (viewId !== undefined) linkParams.push(['view_id', viewId]);

  const timeParams = TIME_FILTERS.flatMap((filter) => filter.names.filter((name) => raw[name] !== undefined).map((name) => ({ name, filter })));
  if (timeParams.length > 1) {
    const names = timeParams.map((param) => param.name);
    throw invalidQuery(`at most one timestamp filter may be used in one request; got ${names.join(', ')}`, names);
  }
  let time: TimeFilter | undefined;
  const timeParam = timeParams[0];
  if (timeParam) {
    const value = raw[timeParam.name]!;
    const parsed = parseTimestampFilter(value);
    if (!parsed) {
      throw invalidQuery(`query parameter '${timeParam.name}' must be an ISO 8601 date (YYYY-MM-DD) or date-time with Z or an offset`, [timeParam.name]);
    }
    time = { column: timeParam.filter.column, bound: timeParam.filter.bound, iso: parsed.iso };
    linkParams.push([timeParam.filter.names[0], value]);
  }

  if (raw.next !== undefined && raw.prev !== undefined) {
    throw invalidQuery('next and prev must not be sent together', ['next', 'prev']);
  }
  const cursor =
    raw.next !== undefined ? { kind: 'next' as const, id: raw.next } : raw.prev !== undefined ? { kind: 'prev' as const, id: raw.prev } : undefined;

  const limit = raw.limit ?? MAX_PAGE_SIZE;
  if (raw.limit !== undefined) linkParams.push(['limit', String(limit)]);

  let order: RecordOrder = DEFAULT_RECORD_ORDER;
  if (raw.order_by !== undefined) {
    if (!Object.hasOwn(RECORD_ORDERS, raw.order_by)) {
      throw invalidQuery(`query parameter 'order_by' must be one of ${Object.keys(RECORD_ORDERS).join(', ')}; got '${raw.order_by}'`, ['order_by']);
    }
    order = RECORD_ORDERS[raw.order_by as keyof typeof RECORD_ORDERS];
    linkParams.push(['order_by', raw.order_by]);
  }

  return {
    order,
    ...(recordType === undefined ? {} : { recordType }),
    ...(viewId === undefined ? {} : { viewId }),
    ...(time ? { time } : {}),
    ...(cursor ? { cursor } : {}),
    limit,
    linkParams,
  };
}

/** A parameter and its alias name one filter: both may be sent only with the same value. */
function aliased(raw: RawRecordListQuery, name: 'record_type' | 'view_id', alias: 'recordType' | 'viewId'): string | undefined {
  const value = raw[name];
  const aliasValue = raw[alias];
  if (value !== undefined && aliasValue !== undefined && value !== aliasValue) {
    throw invalidQuery(`'${name}' and its alias '${alias}' were both sent, with different values`, [name, alias]);
  }
  return value ?? aliasValue;
}
