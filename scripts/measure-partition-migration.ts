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
  await sql`insert into events (company_id, id, created_at, updated_at, excluded, type, flow_key, step_key, user_id, connection_key,
      version_key, flow_session, seconds_active, text, body)
    select 'company-' || (n % 10), 'evt-' || lpad(n::text, 9, '0'), at, at, n % 5 = 0,
      (array['user_flow_step_completed', 'user_flow_started', 'user_flow_completed', 'user_decision', 'note'])[1 + n % 5],
      'flow-' || (n % 40), 'step-' || (n % 12), 'user-' || (n % 1000), 'connection-' || (n % 8), 'v' || (n % 3), n, n % 600,
      case when n % 4 = 0 then 'a note of event ' || n end,
      '{"id":"evt-' || lpad(n::text, 9, '0') || '","type":"user_flow_step_completed","created_at":"' || at || '","flow_key":"flow-' || (n % 40)
        || '","step_key":"step-' || (n % 12) || '","user_id":"user-' || (n % 1000) || '","connection_key":"connection-' || (n % 8)
        || '","version_key":"v' || (n % 3) || '","flow_session":' || n || ',"seconds_active":' || (n % 600)
        || ',"excluded":false,"text":null,"like_value":null,"version_object":null}'
    from (select n, to_char(now() - (n % 730) * interval '1 day' - (n % 86400) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at
      from generate_series(1, ${EVENTS}) as n) as generated`.execute(database.db);
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
