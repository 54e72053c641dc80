/** A check object as Lob publishes it (`id`, `amount`, `to`, `from`, `send_date`, ...). */
export type Check = Record<string, unknown>;

export type CheckSortField = 'date_created' | 'send_date';
export type SortDirection = 'asc' | 'desc';

export interface CheckSort {
  readonly field: CheckSortField;
  readonly direction: SortDirection;
}

/** Lob's own order: newest first. */
export const DEFAULT_CHECK_SORT: CheckSort = { field: 'date_created', direction: 'desc' };

/** One end of a time range: an ISO 8601 UTC instant with milliseconds. */
export interface Bound {
  readonly at: string;
  readonly inclusive: boolean;
}

/** At most one lower and one upper bound: several filters on one field are narrowed to these. */
export interface TimeRange {
  readonly lower?: Bound;
  readonly upper?: Bound;
}

export interface CheckFilters {
  readonly date_created?: TimeRange;
  readonly send_date?: TimeRange;
  readonly scheduled?: boolean;
  readonly mail_type?: string;
}
