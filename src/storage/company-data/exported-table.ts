import type { Exact } from '../../lib/type-checks.js';
import type { DB } from '../schema.js';

/**
 * How one table goes into a company export: its kind (the table's name), its key (the export's
 * order and its pages), and the columns it carries. company_id is never carried: it is the
 * header's. `binary` columns travel as base64; `boolean` columns as true/false whatever the
 * database stores; `suppliedOnImport` columns are never exported (they hold secrets) and the
 * importing deployment fills them.
 */
export interface ExportedTable<T extends keyof DB = keyof DB> {
  readonly table: T;
  readonly key: readonly (keyof DB[T] & string)[];
  readonly columns: readonly (keyof DB[T] & string)[];
  readonly binary?: readonly (keyof DB[T] & string)[];
  readonly boolean?: readonly (keyof DB[T] & string)[];
  readonly suppliedOnImport?: readonly (keyof DB[T] & string)[];
  /** Columns the target database computes as the rows are written (an event's JSON and feed position). */
  readonly regeneratedOnImport?: readonly (keyof DB[T] & string)[];
  /**
   * The order of the rows when it is not the key's, per database: events go in change-feed
   * order, so that the target's feed (whose positions the import hands out anew, in file order)
   * replays them in the same order as the source's.
   */
  readonly order?: Readonly<Record<'sqlite' | 'postgres', readonly (keyof DB[T] & string)[]>>;
  /** Rows per page: fewer where rows are large (a blob holds a whole PDF). */
  readonly pageRows: number;
}

type ColumnOf<T extends keyof DB> = keyof DB[T] & string;

/**
 * One table's entry; `complete` is `true` only when the carried and supplied columns (with
 * company_id) are every column of the table, so a new column stops the build until it is placed.
 */
export function exported<
  T extends keyof DB,
  const C extends readonly ColumnOf<T>[],
  const S extends readonly ColumnOf<T>[] = readonly [],
  const R extends readonly ColumnOf<T>[] = readonly [],
>(
  spec: ExportedTable<T> & { readonly columns: C; readonly suppliedOnImport?: S; readonly regeneratedOnImport?: R },
  complete: Exact<C[number] | S[number] | R[number] | 'company_id', keyof DB[T]>,
): ExportedTable<T> {
  void complete;
  return spec;
}
