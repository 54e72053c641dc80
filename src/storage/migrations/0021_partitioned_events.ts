import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * PostgreSQL's events become a table partitioned by month of `created_at` (docs/data-lifecycle.md,
 * "Partitions of events on PostgreSQL"), so that retention drops a month at once instead of
 * deleting it row by row. SQLite is left as it is.
 *
 * A unique key of a partitioned table must hold the partition key, so the primary key becomes
 * (company_id, id, created_at), and `event_ids` keeps an event's identity (company_id, id) unique
 * across partitions: each stored event is claimed in it, and when the id was stored before under
 * another created_at, that older row is deleted (a replacement that moved in time). The identity's
 * row lock is what orders two concurrent writes of one id, as the primary key's did. The ingest
 * claims before it writes (so that concurrent ingests lock in one order); statement triggers do it
 * for any other insert, and remove the identity of a deleted event.
 *
 * Frozen: it holds its own copy of the partition's naming and bounds, never today's code.
 * The whole table is copied once, under its lock: the downtime the guide states per million events.
 */
const COLUMNS_KEPT = `company_id, id, connection_id, connection_key, created_at, excluded, flow_id, flow_key, flow_session,
  like_value, seconds_active, seconds_running, selected_decision, step_key, text, type, updated_at, user_id, version_id,
  version_key, version_object, feed_xid, feed_seq, body`;

/** The same indexes as before (migrations 0001 and 0008), now one per partition. */
const INDEXES = [
  'create index events_created_idx on events (company_id, created_at, id)',
  'create index events_type_idx on events (company_id, type, created_at, id)',
  ...['flow_key', 'step_key', 'user_id', 'connection_key', 'version_key', 'selected_decision', 'flow_session'].map(
    (column) => `create index events_${column}_idx on events (company_id, ${column}, created_at, id) where ${column} is not null`,
  ),
  'create index events_feed_idx on events (company_id, feed_xid, feed_seq)',
  'create index events_feed_type_idx on events (company_id, type, feed_xid, feed_seq)',
];

/**
 * The partitions and the identity table live in a schema of their own: they are the inside of
 * `events`, and the service's schema shows the same tables on both databases.
 */
const SCHEMA = 'event_partitions';

/** Months created ahead of the current one, as the service itself does later. */
const MONTHS_AHEAD = 3;

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  // Copying a large table takes longer than the service's statement timeout allows a request.
  await sql`set local statement_timeout = 0`.execute(db);
  await sql`lock table events in access exclusive mode`.execute(db);
  await sql`create schema ${sql.raw(SCHEMA)}`.execute(db);
  await sql`create table events_next (like events including defaults) partition by range (created_at)`.execute(db);
  await sql.raw(`create table ${SCHEMA}.events_default partition of events_next default`).execute(db);
  const { rows } = await sql<{ month: string }>`select distinct left(created_at, 7) as month from events
    where created_at ~ '^[0-9]{4}-[0-9]{2}' and created_at < '9999-12'`.execute(db);
  const months = new Set(rows.map((row) => row.month));
  const now = new Date();
  for (let ahead = -1; ahead <= MONTHS_AHEAD; ahead++) months.add(monthOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + ahead, 1))));
  for (const month of [...months].sort()) {
    await sql
      .raw(`create table ${SCHEMA}.${partitionName(month)} partition of events_next for values from ('${month}') to ('${nextMonth(month)}')`)
      .execute(db);
  }
  // Rows first, indexes after: one sort per index instead of an index insert per row.
  await sql.raw(`insert into events_next (${COLUMNS_KEPT}) select ${COLUMNS_KEPT} from events`).execute(db);
  await sql
    .raw(`create table ${SCHEMA}.event_ids (
    company_id text collate "C" not null, id text collate "C" not null, created_at text collate "C" not null)`)
    .execute(db);
  await sql.raw(`insert into ${SCHEMA}.event_ids (company_id, id, created_at) select company_id, id, created_at from events`).execute(db);
  await sql.raw(`alter table ${SCHEMA}.event_ids add constraint event_ids_pk primary key (company_id, id)`).execute(db);
  await sql`drop table events`.execute(db);
  await sql`alter table events_next rename to events`.execute(db);
  await sql`alter table events add constraint events_pk primary key (company_id, id, created_at)`.execute(db);
  for (const index of INDEXES) await sql.raw(index).execute(db);
  await identityTriggers(db);
  await sql.raw(`analyze events, ${SCHEMA}.event_ids`).execute(db);
}

async function identityTriggers(db: Kysely<any>): Promise<void> {
  // Two statements, so that the delete's snapshot sees what a concurrent writer of the same id
  // committed while the upsert waited for its lock.
  await sql
    .raw(`create function ${SCHEMA}.events_identity_stored() returns trigger language plpgsql as $$
    declare
      companies text[];
      ids text[];
      times text[];
    begin
      -- An ingest claims its identities itself, before it writes (storage/repositories/event-writes.ts).
      if current_setting('wrs.identities_claimed', true) = 'on' then
        return null;
      end if;
      with claimed as (
        insert into ${SCHEMA}.event_ids as event_ids (company_id, id, created_at)
        select company_id, id, created_at from stored order by company_id, id
        on conflict (company_id, id) do update set created_at = excluded.created_at
          where event_ids.created_at <> excluded.created_at
        returning company_id, id, created_at
      )
      select array_agg(company_id), array_agg(id), array_agg(created_at) into companies, ids, times from claimed;
      if ids is not null then
        delete from events using unnest(companies, ids, times) as moved(company_id, id, created_at)
          where events.company_id = moved.company_id and events.id = moved.id and events.created_at <> moved.created_at;
      end if;
      return null;
    end $$`)
    .execute(db);
  await sql
    .raw(`create function ${SCHEMA}.events_identity_removed() returns trigger language plpgsql as $$
    begin
      delete from ${SCHEMA}.event_ids as event_ids using removed
        where event_ids.company_id = removed.company_id and event_ids.id = removed.id and event_ids.created_at = removed.created_at;
      return null;
    end $$`)
    .execute(db);
  await sql
    .raw(`create trigger events_identity_stored after insert on events
    referencing new table as stored for each statement execute function ${SCHEMA}.events_identity_stored()`)
    .execute(db);
  await sql
    .raw(`create trigger events_identity_removed after delete on events
    referencing old table as removed for each statement execute function ${SCHEMA}.events_identity_removed()`)
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`set local statement_timeout = 0`.execute(db);
  await sql`create table events_flat (like events including defaults)`.execute(db);
  await sql.raw(`insert into events_flat (${COLUMNS_KEPT}) select ${COLUMNS_KEPT} from events`).execute(db);
  await sql`drop table events`.execute(db);
  await sql.raw(`drop schema ${SCHEMA} cascade`).execute(db);
  await sql`alter table events_flat rename to events`.execute(db);
  await sql`alter table events add constraint events_pk primary key (company_id, id)`.execute(db);
  for (const index of INDEXES) await sql.raw(index).execute(db);
}

function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

function nextMonth(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const date = new Date(0);
  date.setUTCFullYear(year, number, 1);
  return monthOf(date);
}

function partitionName(month: string): string {
  return `events_p${month.replace('-', '_')}`;
}
