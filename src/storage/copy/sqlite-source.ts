import { existsSync, statSync } from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import { knownMigrationNames } from '../migrator.js';
import { SqliteDatabase } from '../sqlite-driver.js';
import { CopyRefusal } from './copy-refusal.js';
import type { CopiedTable } from '../table-registry.js';

export type SourceRow = Record<string, unknown>;

/** A table of the source as the copy reads it: its columns, and its primary key in key order. */
export interface SourceTable {
  readonly name: CopiedTable;
  readonly columns: readonly string[];
  readonly primaryKey: readonly string[];
}

export interface PageLimits {
  readonly rows: number;
  /** A page ends early once its rows hold this many bytes (stored PDFs are large). */
  readonly bytes: number;
}

/**
 * The SQLite database being copied, opened read-only. All reads run in one read transaction:
 * they see the database as it was at the first read, whatever a running service writes after.
 */
export interface SqliteSource {
  describe(table: CopiedTable): SourceTable;
  count(table: CopiedTable): number;
  /** The rows after `after` (a primary key's values; undefined = from the start), in key order. */
  page(table: SourceTable, after: readonly unknown[] | undefined, limits: PageLimits): SourceRow[];
  close(): void;
}

export async function openSqliteSource(path: string): Promise<SqliteSource> {
  if (!existsSync(path) || !statSync(path).isFile()) throw new CopyRefusal(`no SQLite database at ${path}`);
  let db: SqliteDatabase;
  try {
    db = new SqliteDatabase(path, { readonly: true, fileMustExist: true });
    db.exec('begin');
    db.prepare('select count(*) from sqlite_master').get();
  } catch (error) {
    throw new CopyRefusal(`${path} cannot be read as a SQLite database: ${(error as Error).message}`);
  }
  try {
    await requireSameMigrations(db, path);
  } catch (error) {
    db.close();
    throw error;
  }
  const statements = new Map<string, Statement>();
  const prepared = (text: string): Statement => {
    let statement = statements.get(text);
    if (!statement) statements.set(text, (statement = db.prepare<unknown[]>(text)));
    return statement;
  };
  return {
    describe(table) {
      const info = db.pragma(`table_info(${quote(table)})`) as { name: string; pk: number }[];
      if (info.length === 0) throw new CopyRefusal(`${path} has no table ${table}`);
      const primaryKey = info
        .filter((column) => column.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((column) => column.name);
      return { name: table, columns: info.map((column) => column.name), primaryKey };
    },
    count(table) {
      return (prepared(`select count(*) as n from ${quote(table)}`).get() as { n: number }).n;
    },
    page(table, after, limits) {
      const key = table.primaryKey.map(quote).join(', ');
      const placeholders = table.primaryKey.map(() => '?').join(', ');
      const where = after ? `where (${key}) > (${placeholders})` : '';
      const statement = prepared(`select ${table.columns.map(quote).join(', ')} from ${quote(table.name)} ${where} order by ${key} limit ?`);
      const rows: SourceRow[] = [];
      let bytes = 0;
      for (const row of statement.iterate(...(after ?? []), limits.rows) as IterableIterator<SourceRow>) {
        rows.push(row);
        bytes += rowBytes(row);
        if (bytes >= limits.bytes) break;
      }
      return rows;
    },
    close() {
      db.exec('rollback');
      db.close();
    },
  };
}

/**
 * The copy never migrates the source: a source behind this version of wrs is refused with the
 * command that brings it up to date, a source ahead of it (written by a newer wrs) with the
 * advice to copy with that version.
 */
async function requireSameMigrations(db: SqliteDatabase, path: string): Promise<void> {
  const known = await knownMigrationNames();
  const hasTable = db.prepare(`select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'`).get();
  if (!hasTable) throw new CopyRefusal(`${path} is not a wrs database (it has no migrations table)`);
  const applied = (db.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map((row) => row.name);
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new CopyRefusal(`${path} was migrated by a newer wrs (${unknown.join(', ')}); copy it with that version`);
  }
  const pending = known.filter((name) => !applied.includes(name));
  if (pending.length > 0) {
    throw new CopyRefusal(
      `${path} is not at this wrs version's migrations (pending: ${pending.join(', ')}); ` +
        `bring it up to date first with WRS_DATABASE_URL=sqlite:${path} wrs migrate`,
    );
  }
}

type Statement = BetterSqlite3.Statement<unknown[]>;

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

function rowBytes(row: SourceRow): number {
  let bytes = 0;
  for (const value of Object.values(row)) {
    if (typeof value === 'string') bytes += value.length;
    else if (value instanceof Uint8Array) bytes += value.length;
    else bytes += 8;
  }
  return bytes;
}
