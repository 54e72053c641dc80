import type { operations } from '@wrs/client';
import { isTimestampFilter, TIMESTAMP_EXAMPLE } from '../../components/query-words';

export type RecordsQuery = NonNullable<operations['listRecords']['parameters']['query']>;

export const TIME_FILTERS = [
  { name: 'created_after', alias: 'createdAfter', label: 'Created after' },
  { name: 'created_before', alias: 'createdBefore', label: 'Created before' },
  { name: 'updated_after', alias: 'updatedAfter', label: 'Updated after' },
  { name: 'updated_before', alias: 'updatedBefore', label: 'Updated before' },
] as const;

export type TimeFilterName = (typeof TIME_FILTERS)[number]['name'];

/** The orders the table offers: the API's `order_by` values ('' is its default, created_at). */
export const SORTS = [
  { value: '', label: 'Created, oldest first' },
  { value: '-created_at', label: 'Created, newest first' },
  { value: 'updated_at', label: 'Updated, oldest first' },
  { value: '-updated_at', label: 'Updated, newest first' },
] as const satisfies ReadonlyArray<{ value: NonNullable<RecordsQuery['order_by']> | ''; label: string }>;
export type RecordsSort = (typeof SORTS)[number]['value'];

/** The filters the form edits; the cursors (next / prev) come only from the answer's links. */
export interface RecordsFilters {
  record_type: string;
  view_id: string;
  time_filter: TimeFilterName | '';
  time_value: string;
  limit: string;
  order_by: RecordsSort;
}

/**
 * The filters in a console URL's query. The API's own aliases (recordType, viewId,
 * createdAfter, ...) are read as their snake_case names, so a pasted link works too.
 */
export function filtersOf(query: Record<string, string>): RecordsFilters {
  const time = TIME_FILTERS.find((filter) => (query[filter.name] ?? query[filter.alias]) !== undefined);
  return {
    record_type: query.record_type ?? query.recordType ?? '',
    view_id: query.view_id ?? query.viewId ?? '',
    time_filter: time?.name ?? '',
    time_value: time ? (query[time.name] ?? query[time.alias] ?? '') : '',
    limit: query.limit ?? '',
    order_by: SORTS.find((sort) => sort.value === query.order_by)?.value ?? '',
  };
}

/** The filters as query parameters (empty ones left out), for the console URL and the API alike. */
export function filterParams(filters: RecordsFilters): Record<string, string> {
  const params: Record<string, string> = {};
  if (filters.record_type.trim()) params.record_type = filters.record_type.trim();
  if (filters.view_id.trim()) params.view_id = filters.view_id.trim();
  if (filters.time_filter && filters.time_value.trim()) params[filters.time_filter] = filters.time_value.trim();
  if (filters.limit.trim()) params.limit = filters.limit.trim();
  if (filters.order_by) params.order_by = filters.order_by;
  return params;
}

/** The API query of a console URL (its filters and its cursor), or why it cannot be sent. */
export function apiQueryOf(query: Record<string, string>): { ok: true; query: RecordsQuery } | { ok: false; message: string } {
  const { limit, ...rest } = filterParams(filtersOf(query));
  const api: RecordsQuery = { ...rest };
  const time = TIME_FILTERS.find((filter) => api[filter.name] !== undefined);
  if (time && !isTimestampFilter(api[time.name]!)) {
    return { ok: false, message: `${time.label}: enter a date such as ${TIMESTAMP_EXAMPLE}, not “${api[time.name]}”.` };
  }
  if (limit !== undefined) {
    const value = Number(limit);
    if (!Number.isInteger(value) || value < 1 || value > 100)
      return { ok: false, message: `Records per page must be a whole number from 1 to 100, not “${limit}”.` };
    api.limit = value;
  }
  if (query.next) api.next = query.next;
  else if (query.prev) api.prev = query.prev;
  return { ok: true, query: api };
}

export function consoleRecordsHref(params: Record<string, string>): string {
  const search = new URLSearchParams(params).toString();
  return search ? `/app/records?${search}` : '/app/records';
}
