import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../../src/storage/database.js';

/** Per table: its row count and a hash of its rows (order-independent). */
export type DataFingerprint = Record<string, { rows: number; hash: string }>;

const BOOKKEEPING = new Set(['kysely_migration', 'kysely_migration_lock']);

async function tableNames(database: Database): Promise<string[]> {
  const { rows } =
    database.dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(database.db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(database.db);
  return rows
    .map((row) => row.name)
    .filter((name) => !BOOKKEEPING.has(name))
    .sort();
}

/**
 * Everything the service has stored, every company and every table, reduced to one hash per
 * table: two fingerprints are equal exactly when no row was added, removed or changed.
 * One query reads every table (each row as the text of all its columns), so that a check after
 * each of many requests costs one round trip, not one per table.
 */
export async function dataFingerprint(database: Database): Promise<DataFingerprint> {
  return database.dialect === 'postgres' ? hashedByPostgres(database) : hashedBySqlite(database);
}

/** The schema does not change under a test: its tables and columns are read once per database. */
const columnsByDatabase = new WeakMap<Database, Promise<Map<string, string[]>>>();
function sqliteColumns(database: Database): Promise<Map<string, string[]>> {
  let schema = columnsByDatabase.get(database);
  if (!schema) {
    schema = (async () => {
      const columns = new Map<string, string[]>();
      for (const table of await tableNames(database)) {
        const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table}) order by cid`.execute(database.db);
        columns.set(
          table,
          rows.map((row) => row.name),
        );
      }
      return columns;
    })();
    columnsByDatabase.set(database, schema);
  }
  return schema;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** SQLite: each row's columns as SQL literals (`quote`: blobs as hex), hashed in this process. */
async function hashedBySqlite(database: Database): Promise<DataFingerprint> {
  const schema = await sqliteColumns(database);
  const perTable = [...schema].map(
    ([table, columns]) =>
      `select '${table.replaceAll("'", "''")}' as name, ${columns.map((column) => `quote(${quoted(column)})`).join(" || ',' || ")} as row from ${quoted(table)}`,
  );
  const { rows } = await sql<{ name: string; row: string }>`${sql.raw(perTable.join(' union all '))}`.execute(database.db);
  const digestsByTable = new Map<string, string[]>([...schema.keys()].map((table) => [table, []]));
  for (const { name, row } of rows) digestsByTable.get(name)!.push(createHash('sha256').update(row).digest('hex'));
  const fingerprint: DataFingerprint = {};
  for (const [table, digests] of digestsByTable) {
    fingerprint[table] = { rows: digests.length, hash: createHash('sha256').update(digests.sort().join('\n')).digest('hex') };
  }
  return fingerprint;
}

/** PostgreSQL: each row's text form (every column, bytea as hex) hashed, sorted and hashed again, in the database. */
async function hashedByPostgres(database: Database): Promise<DataFingerprint> {
  const tables = await postgresTables(database);
  const perTable = tables.map(
    (table) => sql`select ${sql.lit(table)} as name, count(*) as rows,
      md5(string_agg(md5(t::text), '' order by md5(t::text))) as hash from ${sql.table(table)} t`,
  );
  const { rows } = await sql<{ name: string; rows: string; hash: string | null }>`${sql.join(perTable, sql` union all `)}`.execute(database.db);
  return Object.fromEntries(rows.map((row) => [row.name, { rows: Number(row.rows), hash: row.hash ?? '' }]));
}

const tablesByDatabase = new WeakMap<Database, Promise<string[]>>();
function postgresTables(database: Database): Promise<string[]> {
  let tables = tablesByDatabase.get(database);
  if (!tables) tablesByDatabase.set(database, (tables = tableNames(database)));
  return tables;
}

/** The tables whose content differs between two fingerprints. */
export function changedTables(before: DataFingerprint, after: DataFingerprint): string[] {
  const tables = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...tables].filter((table) => before[table]?.hash !== after[table]?.hash).sort();
}
