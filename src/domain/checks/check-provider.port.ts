import type { Check, CheckFilters, CheckSort } from './check.js';

/**
 * Where a company's mailed checks come from. Every provider answers the same normalized
 * request with checks in Lob's check-object shape; paging positions are provider-specific
 * values that the checks service wraps into opaque, signed cursors.
 */
export type CheckProviderName = 'local' | 'lob';

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
