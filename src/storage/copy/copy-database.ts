import type { Transaction } from 'kysely';
import { CopyRefusal } from './copy-refusal.js';
import { COPIED_TABLES, type CopiedTable } from '../table-registry.js';
import { advanceSequences, claimCopiedEventIds, countRows, openPostgresTarget } from './postgres-target.js';
import { rowConverter, type RowConverter } from './row-conversion.js';
import { openSqliteSource, type PageLimits, type SourceTable, type SqliteSource } from './sqlite-source.js';

/** PostgreSQL takes at most 65,535 parameters in one statement. */
const MAX_PARAMETERS = 65_535;
const PAGE_ROWS = 2_000;
const PAGE_BYTES = 8 * 1_048_576;

export interface TableRows {
  readonly table: CopiedTable;
  readonly rows: number;
}

/** What a copy reports as it goes. */
export interface CopyListener {
  /** Before the first row: every table with the rows it holds in the source. */
  started(tables: readonly TableRows[]): void;
  /** After each batch: the rows of `table` copied so far. */
  copied(table: CopiedTable, rows: number): void;
}

export interface CopySummary {
  readonly tables: readonly TableRows[];
  readonly seconds: number;
}

/**
 * Copies every table of a wrs SQLite database into an empty PostgreSQL database, after running
 * the migrations there. The rows go in inside one transaction, so a copy that fails leaves the
 * target without any of them; the source is only read.
 */
export async function copySqliteToPostgres(sqlitePath: string, postgresUrl: string, listener: CopyListener): Promise<CopySummary> {
  const started = performance.now();
  const source = await openSqliteSource(sqlitePath);
  try {
    const target = await openPostgresTarget(postgresUrl);
    try {
      const types = await target.columnTypes();
      const plans = COPIED_TABLES.map((name) => {
        const table = source.describe(name);
        return { table, convert: rowConverter(table, types.get(name)!), rows: source.count(name) };
      });
      listener.started(plans.map(({ table, rows }) => ({ table: table.name, rows })));
      await target.db.transaction().execute(async (trx) => {
        for (const plan of plans) {
          const copied = await copyTable(trx, source, plan.table, plan.convert, (rows) => listener.copied(plan.table.name, rows));
          const stored = await countRows(trx, plan.table.name);
          if (copied !== plan.rows || stored !== plan.rows) {
            throw new CopyRefusal(`${plan.table.name}: the source holds ${plan.rows} rows, ${copied} were read and ${stored} stored; nothing was committed`);
          }
        }
        await claimCopiedEventIds(trx);
        await advanceSequences(trx);
      });
      return { tables: plans.map(({ table, rows }) => ({ table: table.name, rows })), seconds: (performance.now() - started) / 1000 };
    } finally {
      await target.close();
    }
  } finally {
    source.close();
  }
}

/** Walks the table by its primary key, a bounded page at a time, inserting each page as one statement. */
async function copyTable(
  trx: Transaction<any>,
  source: SqliteSource,
  table: SourceTable,
  convert: RowConverter,
  onRows: (rows: number) => void,
): Promise<number> {
  const limits: PageLimits = { rows: Math.min(PAGE_ROWS, Math.floor(MAX_PARAMETERS / (table.columns.length + 1))), bytes: PAGE_BYTES };
  let after: unknown[] | undefined;
  let copied = 0;
  for (;;) {
    const page = source.page(table, after, limits);
    if (page.length === 0) return copied;
    await trx.insertInto(table.name).values(page.map(convert)).execute();
    copied += page.length;
    onRows(copied);
    const last = page[page.length - 1]!;
    after = table.primaryKey.map((column) => last[column]);
  }
}
