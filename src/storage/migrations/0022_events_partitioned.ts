import { sql, type Kysely } from 'kysely';
import { dialectOf } from './frozen/dialect.js';

/**
 * PostgreSQL only (docs/data-lifecycle.md, "Partitions of events"): `events` becomes a table
 * partitioned by month of created_at (canonical ISO text, binary collation, so '2026-11' <=
 * '2026-11-30T…' < '2026-12'), with a DEFAULT partition for months that have none. A
 * partitioned table's unique index must hold the partition key, so the uniqueness of
 * (company_id, id), which a replacement by ID rests on, moves to `event_ids`, which also tells
 * an ingest where the event it replaces lives. The rows are copied once, inside the migration's
 * transaction: the service is down for its length (measured in the guide).
 */

/** The months given a partition of their own here: those holding rows, within this window around now. */
const MONTHS_BACK = 60;
const MONTHS_AHEAD = 2;

const FILTERED_KEYS = [
  { column: 'type', nullable: false },
  { column: 'flow_key', nullable: true },
  { column: 'step_key', nullable: true },
  { column: 'user_id', nullable: true },
  { column: 'connection_key', nullable: true },
  { column: 'version_key', nullable: true },
  { column: 'selected_decision', nullable: true },
  { column: 'flow_session', nullable: true },
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  // The copy outlasts the service's statement timeout on a large table: until this transaction ends, none.
  await sql`set local statement_timeout = 0`.execute(db);
  await dropEventIndexes(db);
  await sql`alter table events drop constraint events_pk`.execute(db);
  await sql`alter table events rename to events_unpartitioned`.execute(db);
  await sql`create table events (like events_unpartitioned including defaults including constraints) partition by range (created_at)`.execute(db);
  await sql`create table events_default partition of events default`.execute(db);

  const now = new Date();
  const { rows } = await sql<{ month: string }>`select distinct left(created_at, 7) as month from events_unpartitioned`.execute(db);
  const months = new Set(rows.map((row) => row.month).filter((month) => withinWindow(month, now)));
  for (let ahead = 0; ahead <= MONTHS_AHEAD; ahead++) months.add(monthOf(now, ahead));
  for (const month of [...months].sort()) {
    await sql`create table ${sql.table(partitionName(month))} partition of events
      for values from (${sql.lit(month)}) to (${sql.lit(nextMonth(month))})`.execute(db);
  }

  await sql`insert into events select * from events_unpartitioned`.execute(db);
  await sql`create table event_ids (
    company_id text collate "C" not null,
    id text collate "C" not null,
    created_at text collate "C" not null,
    replaced_created_at text collate "C",
    constraint event_ids_pk primary key (company_id, id))`.execute(db);
  await sql`insert into event_ids (company_id, id, created_at) select company_id, id, created_at from events_unpartitioned`.execute(db);
  await sql`drop table events_unpartitioned`.execute(db);
  await createEventIndexes(db);
  await sql`analyze events`.execute(db);
  await sql`analyze event_ids`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`set local statement_timeout = 0`.execute(db);
  await dropEventIndexes(db);
  await sql`alter table events rename to events_partitioned`.execute(db);
  await sql`create table events (like events_partitioned including defaults including constraints)`.execute(db);
  await sql`insert into events select * from events_partitioned`.execute(db);
  await sql`drop table events_partitioned`.execute(db);
  await sql`drop table event_ids`.execute(db);
  await sql`alter table events add constraint events_pk primary key (company_id, id)`.execute(db);
  await createEventIndexes(db);
}

async function dropEventIndexes(db: Kysely<any>): Promise<void> {
  for (const name of ['created', ...FILTERED_KEYS.map(({ column }) => column), 'feed', 'feed_type']) {
    await sql`drop index ${sql.table(`events_${name}_idx`)}`.execute(db);
  }
}

/** The indexes of migrations 0001 and 0008, declared on the parent: each partition has its own. */
async function createEventIndexes(db: Kysely<any>): Promise<void> {
  await sql`create index events_created_idx on events (company_id, created_at, id)`.execute(db);
  for (const { column, nullable } of FILTERED_KEYS) {
    const where = nullable ? sql`where ${sql.ref(column)} is not null` : sql``;
    await sql`create index ${sql.table(`events_${column}_idx`)} on events (company_id, ${sql.ref(column)}, created_at, id) ${where}`.execute(db);
  }
  await sql`create index events_feed_idx on events (company_id, feed_xid, feed_seq)`.execute(db);
  await sql`create index events_feed_type_idx on events (company_id, type, feed_xid, feed_seq)`.execute(db);
}

/** 'YYYY-MM' of the month `ahead` months after now's (UTC). */
function monthOf(now: Date, ahead: number): string {
  const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + ahead, 1));
  return date.toISOString().slice(0, 7);
}

function nextMonth(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return monthOf(new Date(Date.UTC(year, number - 1, 1)), 1);
}

function withinWindow(month: string, now: Date): boolean {
  return /^\d{4}-\d{2}$/.test(month) && month >= monthOf(now, -MONTHS_BACK) && month <= monthOf(now, MONTHS_AHEAD);
}

function partitionName(month: string): string {
  return `events_${month.replace('-', '_')}`;
}
