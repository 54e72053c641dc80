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

/** A row as text; binary columns (PDF bytes) by their hash, which is far cheaper than their JSON. */
function rowText(row: Record<string, unknown>): string {
  const columns: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) {
    if (value instanceof Uint8Array) columns[name] = `sha256:${createHash('sha256').update(value).digest('hex')}`;
    else if (typeof value === 'bigint') columns[name] = value.toString();
    else columns[name] = value;
  }
  return JSON.stringify(columns);
}

/**
 * Everything the service has stored, every company and every table, reduced to one hash per
 * table: two fingerprints are equal exactly when no row was added, removed or changed.
 */
export async function dataFingerprint(database: Database): Promise<DataFingerprint> {
  const fingerprint: DataFingerprint = {};
  for (const table of await tableNames(database)) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(database.db);
    const digests = rows.map((row) => createHash('sha256').update(rowText(row)).digest('hex')).sort();
    fingerprint[table] = { rows: rows.length, hash: createHash('sha256').update(digests.join('\n')).digest('hex') };
  }
  return fingerprint;
}

/** The tables whose content differs between two fingerprints. */
export function changedTables(before: DataFingerprint, after: DataFingerprint): string[] {
  const tables = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...tables].filter((table) => before[table]?.hash !== after[table]?.hash).sort();
}
