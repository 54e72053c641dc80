/**
 * Measures how long migration 0022 (events partitioned by month, docs/data-lifecycle.md) takes
 * on PostgreSQL, which is the downtime of the upgrade (not part of `npm test`). Run against an
 * EMPTY database that it may fill and leave migrated:
 *
 *   WRS_DATABASE_URL=postgres://.../scratch EVENTS=1000000 npx tsx scripts/measure-partition-migration.ts
 *
 * The database is migrated to 0021, filled with EVENTS events (generate_series: 10 companies,
 * created_at over the last 24 months, a JSON body of about 400 bytes, the keys set as ingests
 * set them), then migrated to 0022 while the script times it.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileMigrationProvider, Migrator, sql } from 'kysely';
import { openDatabase } from '../src/storage/database.js';
import { insertGeneratedEvents } from './generated-events.js';

const EVENTS = Number(process.env.EVENTS ?? 1_000_000);
const url = process.env.WRS_DATABASE_URL;
if (!url?.startsWith('postgres')) throw new Error('set WRS_DATABASE_URL to an empty PostgreSQL database');

const migrationFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/storage/migrations');
const database = openDatabase(url, { statementTimeoutMs: 0 });
const migrator = new Migrator({ db: database.db, provider: new FileMigrationProvider({ fs, path, migrationFolder }) });
try {
  const { error } = await migrator.migrateTo('0021_records_updated_order');
  if (error) throw error;
  const filling = performance.now();
  await insertGeneratedEvents(database.db, 'events', EVENTS, sql`now() - (n % 730) * interval '1 day' - (n % 86400) * interval '1 second'`);
  await sql`vacuum analyze events`.execute(database.db);
  console.log(`filled ${EVENTS.toLocaleString('en-US')} events in ${((performance.now() - filling) / 1000).toFixed(1)} s`);

  const started = performance.now();
  const { error: failed } = await migrator.migrateTo('0022_events_partitioned');
  if (failed) throw failed;
  const seconds = (performance.now() - started) / 1000;
  const { rows } = await sql<{ parts: number }>`select count(*)::int as parts from pg_inherits where inhparent = 'events'::regclass`.execute(database.db);
  console.log(
    `migration 0022: ${seconds.toFixed(1)} s for ${EVENTS.toLocaleString('en-US')} events (${((seconds * 1_000_000) / EVENTS).toFixed(1)} s per million), ${rows[0]!.parts} partitions`,
  );
} finally {
  await database.close();
}
