/**
 * Where a company's mailed checks come from. Every provider answers the same normalized
 * request with checks in Lob's check-object shape; paging positions are provider-specific
 * values that the checks service wraps into opaque, signed cursors.
 */
export type CheckProviderName = 'local' | 'lob';

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

/** A JSON value that tells a provider where a page starts; opaque to everyone else. */
export type PagePosition = unknown;

export interface CheckListRequest {
  readonly limit: number;
  readonly filters: CheckFilters;
  readonly sort: CheckSort;
  /** Continue from a previous page: the checks after, or before, this position. */
  readonly page?: { readonly direction: 'after' | 'before'; readonly position: PagePosition };
}

export interface CheckPage {
  readonly results: Check[];
  /** Where the next page starts (`after`), or null when nothing lies that way. */
  readonly next: PagePosition | null;
  /** Where the previous page ends (`before`), or null when nothing lies that way. */
  readonly previous: PagePosition | null;
}

export interface CheckProvider {
  readonly name: CheckProviderName;
  /** Lists one page of the company's checks; failures are AppErrors (never a bare 500). */
  list(companyId: string, request: CheckListRequest): Promise<CheckPage>;
}
