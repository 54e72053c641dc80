/**
 * How long retention takes a whole month of events out of every read on PostgreSQL: the detach
 * transaction of a sweep (`detachMonth` in src/storage/repositories/event-partitions.ts), timed on a
 * month table of EVENTS events (not part of `npm test`). Run against an EMPTY database that it may
 * fill and leave migrated:
 *
 *   WRS_DATABASE_URL=postgres://.../scratch EVENTS=10000000 npx tsx scripts/measure-month-detach.ts
 *
 * The database is migrated, a table for January 2020 is filled (generate_series: 10 companies, the
 * keys set as ingests set them, a JSON body of about 400 bytes) and attached as `events` attaches
 * a month (its indexes built then), and the sweep's detach transaction runs with every company past
 * its period; the rest of a sweep (the month's `event_ids` rows and `__contains` values removed in
 * batches, then the table dropped) happens after the month has left every read.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileMigrationProvider, Migrator, sql } from 'kysely';
import { openDatabase } from '../src/storage/database.js';
import { detachMonth } from '../src/storage/repositories/event-partitions.js';
import { insertGeneratedEvents } from './generated-events.js';

const EVENTS = Number(process.env.EVENTS ?? 1_000_000);
/** The companies insertGeneratedEvents spreads the events over. */
const COMPANIES = 10;
const url = process.env.WRS_DATABASE_URL;
if (!url?.startsWith('postgres')) throw new Error('set WRS_DATABASE_URL to an empty PostgreSQL database');

const migrationFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/storage/migrations');
const database = openDatabase(url, { statementTimeoutMs: 0 });
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(2);
try {
  const { error } = await new Migrator({ db: database.db, provider: new FileMigrationProvider({ fs, path, migrationFolder }) }).migrateToLatest();
  if (error) throw error;

  const filling = performance.now();
  await sql`create table events_2020_01 (like events including defaults including constraints)`.execute(database.db);
  await insertGeneratedEvents(database.db, 'events_2020_01', EVENTS, sql`timestamp '2020-01-01' + (n % 2678400) * interval '1 second'`);
  console.log(`filled ${EVENTS.toLocaleString('en-US')} events in ${seconds(filling)} s`);
  const attaching = performance.now();
  await sql`alter table events attach partition events_2020_01 for values from ('2020-01') to ('2020-02')`.execute(database.db);
  await sql`analyze events_2020_01`.execute(database.db);
  console.log(`attached (its indexes built) in ${seconds(attaching)} s`);

  const now = new Date().toISOString();
  const cutoffs = new Map(Array.from({ length: COMPANIES }, (_, i) => [`company-${i}`, now]));
  const detaching = performance.now();
  const marks = await database.db.transaction().execute((trx) => detachMonth(trx, '2020-01', cutoffs));
  if (!marks) throw new Error('the month was not detached');
  const { rows } = await sql<{ size: string }>`select pg_size_pretty(pg_total_relation_size('events_2020_01')) as size`.execute(database.db);
  console.log(
    `month of ${EVENTS.toLocaleString('en-US')} events (${rows[0]!.size}, ${marks.length} companies) out of every read: the detach transaction took ${seconds(detaching)} s`,
  );
  await sql`drop table events_2020_01`.execute(database.db);
} finally {
  await database.close();
}
