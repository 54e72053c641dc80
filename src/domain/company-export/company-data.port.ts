import type { TransactionScope } from '../unit-of-work.js';

/** A row of one exported kind as the export shows it: JSON values only (bytes as base64 text). */
export type ExportedRow = Record<string, unknown>;

/** Where a page of a kind ends: the values of its key columns in the last row. */
export type KindPosition = readonly unknown[];

export interface KindPage {
  readonly rows: ExportedRow[];
  /** Where the next page starts; undefined when this page was the last. */
  readonly next: KindPosition | undefined;
}

/** Reads of one company's data that all see one committed state of the database. */
export interface CompanyDataReader {
  /** The rows of `kind` after `after` (from the first when undefined), in key order, a bounded page. */
  page(kind: string, after: KindPosition | undefined): Promise<KindPage>;
  release(): Promise<void>;
}

/** A company's whole data, kind by kind, as the export carries it (implemented by storage). */
export interface CompanyDataStore {
  /** The kinds an export holds, in the order it holds them. */
  readonly kinds: readonly string[];
  readonly databaseKind: 'sqlite' | 'postgres';
  openReader(companyId: string): Promise<CompanyDataReader>;
  /** The tables where the company already has rows (any of the service's tables); empty when it has none. */
  tablesHolding(companyId: string, scope?: TransactionScope): Promise<string[]>;
  /**
   * Stores rows of one kind inside the scope's transaction, as they were exported. Events take
   * new feed positions in the target database, in the order they are given.
   */
  insert(companyId: string, kind: string, rows: readonly ExportedRow[], scope: TransactionScope): Promise<void>;
  /** The problem with a row of `kind` (a missing or mistyped column), or null; checked before any write. */
  rowProblem(kind: string, row: unknown): string | null;
}
