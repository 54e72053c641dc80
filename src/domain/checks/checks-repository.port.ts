import type { Check, CheckFilters, CheckSort } from './check.js';

/** A row's place in a sort order: its sort value and its id (the tie-breaker). */
export interface CheckKey {
  readonly value: string;
  readonly id: string;
}

export interface CheckSlice {
  readonly rows: { key: CheckKey; check: Check }[];
  /** More rows lie beyond the slice in the direction it was read. */
  readonly more: boolean;
}

export interface SliceRequest {
  readonly filters: CheckFilters;
  readonly sort: CheckSort;
  readonly limit: number;
  /** Read forwards (in sort order) or backwards from `from`; without `from`, from the start. */
  readonly direction: 'forward' | 'backward';
  readonly from?: { readonly key: CheckKey; readonly inclusive: boolean };
}

export interface NewCheckRow {
  readonly id: string;
  readonly date_created: string;
  readonly send_date: string;
  readonly scheduled: boolean;
  readonly mail_type: string;
  readonly check: Check;
}

/** Thrown when an added check's id is already taken in the company. */
export class DuplicateCheckIdError extends Error {
  constructor() {
    super('a check with this id already exists');
    this.name = 'DuplicateCheckIdError';
  }
}

export interface ChecksRepository {
  /** Inserts every row in one transaction, or none of them. */
  insertAll(companyId: string, rows: readonly NewCheckRow[]): Promise<void>;
  /** Which of these ids the company already has. */
  existingIds(companyId: string, ids: readonly string[]): Promise<string[]>;
  /** Up to `limit` rows in sort order, read from a position, and whether more lie that way. */
  slice(companyId: string, request: SliceRequest): Promise<CheckSlice>;
}
