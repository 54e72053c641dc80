import { sql, type Kysely } from 'kysely';
import { CONTAINS_FIELDS } from '../../domain/events/event-fields.js';
import type { DB } from '../schema.js';
import { lockKeyValuesForRemoval, pruneKeyValues, type RemovedKeyValues } from './key-value-pruning.js';
import { forgetEventIds } from './event-ids.js';

/**
 * The month partitions of `events` on PostgreSQL (migration 0022; docs/data-lifecycle.md,
 * "Partitions of events"). Each month `YYYY-MM` near now has a partition `events_YYYY_MM`
 * holding the events whose created_at falls in it; the others live in `events_default`, so a
 * company sending timestamps across centuries adds no partitions. The service creates this
 * month's and the next ones ahead; retention detaches, then empties and drops a month every
 * event of which is past its company's period.
 */

/** Months after the current one that get their partition ahead of time. */
export const MONTHS_AHEAD = 2;
/** How long a change of the partitions waits for the lock on `events` before it gives up until the next sweep. */
const LOCK_TIMEOUT = sql.lit('5s');
const PARTITION_NAME = '^events_[0-9]{4}_[0-9]{2}$';

/** 'YYYY-MM' of the month `ahead` months after `date`'s (UTC). */
export function monthOf(date: Date, ahead = 0): string {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + ahead, 1)).toISOString().slice(0, 7);
}

export function partitionOf(month: string): string {
  return `events_${month.replace('-', '_')}`;
}

function monthOfPartition(name: string): string {
  return name.slice('events_'.length).replace('_', '-');
}

/** The first month after `month`: the partition's upper bound. */
export function monthAfter(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return monthOf(new Date(Date.UTC(year, number - 1, 1)), 1);
}

/** The month partitions attached to `events`, oldest first. */
export async function attachedMonths(db: Kysely<DB>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'events'::regclass and c.relname ~ ${PARTITION_NAME} order by c.relname`.execute(db);
  return rows.map((row) => monthOfPartition(row.name));
}

/**
 * Creates the partitions of this month and the next MONTHS_AHEAD that do not exist; answers the
 * months created. A month's events already stored (in the DEFAULT partition) move into its new
 * table in the same transaction: the table is made standalone, filled, then attached, which
 * locks `events` less than `CREATE TABLE ... PARTITION OF` (ingest and reads go on).
 */
export async function prepareMonths(db: Kysely<DB>, now: Date): Promise<string[]> {
  const attached = new Set(await attachedMonths(db));
  const created: string[] = [];
  for (let ahead = 0; ahead <= MONTHS_AHEAD; ahead++) {
    const month = monthOf(now, ahead);
    if (attached.has(month)) continue;
    const table = sql.table(partitionOf(month));
    const [from, to] = [sql.lit(month), sql.lit(monthAfter(month))];
    await db.transaction().execute(async (trx) => {
      await sql`set local lock_timeout = ${LOCK_TIMEOUT}`.execute(trx);
      // Rows routed to DEFAULT wait until the month is attached (reads and other months' rows go on):
      // one arriving between the move and ATTACH would fail it.
      await sql`lock table events_default in exclusive mode`.execute(trx);
      await sql`create table ${table} (like events including defaults including constraints)`.execute(trx);
      await sql`with moved as (delete from events_default where created_at >= ${from} and created_at < ${to} returning *)
        insert into ${table} select * from moved`.execute(trx);
      // Spares ATTACH its scan of the rows just moved.
      await sql`alter table ${table} add constraint ${sql.raw(`${partitionOf(month)}_bounds`)} check (created_at >= ${from} and created_at < ${to})`.execute(
        trx,
      );
      await sql`alter table events attach partition ${table} for values from (${from}) to (${to})`.execute(trx);
    });
    created.push(month);
  }
  return created;
}

/** The companies that have events in the table, one index probe each (a skip scan of the (company_id, ...) index). */
async function companiesIn(db: Kysely<DB>, table: string): Promise<string[]> {
  const name = sql.table(table);
  const { rows } = await sql<{ company_id: string }>`with recursive companies(company_id) as (
      (select company_id from ${name} order by company_id limit 1)
      union all
      select (select company_id from ${name} where company_id > companies.company_id order by company_id limit 1)
      from companies where companies.company_id is not null)
    select company_id from companies where company_id is not null`.execute(db);
  return rows.map((row) => row.company_id);
}

/** Every company of the month has a period, and the whole month is before its cutoff (a created_at before it goes). */
function allPast(month: string, companies: readonly string[], cutoffs: ReadonlyMap<string, string>): boolean {
  const end = monthAfter(month);
  return companies.length > 0 && companies.every((company) => end <= (cutoffs.get(company) ?? ''));
}

/** allPast, asking for the month's companies one at a time: a month that one of them keeps is known at its first. */
async function allPastIn(db: Kysely<DB>, month: string, cutoffs: ReadonlyMap<string, string>): Promise<boolean> {
  const name = sql.table(partitionOf(month));
  let previous: string | undefined;
  for (;;) {
    const after = previous === undefined ? sql`` : sql`where company_id > ${previous}`;
    const { rows } = await sql<{ company_id: string }>`select company_id from ${name} ${after} order by company_id limit 1`.execute(db);
    if (rows.length === 0) return previous !== undefined;
    previous = rows[0]!.company_id;
    if (!allPast(month, [previous], cutoffs)) return false;
  }
}

/** The attached months every event of which is before its company's cutoff, oldest first. */
export async function expiredMonths(db: Kysely<DB>, cutoffs: ReadonlyMap<string, string>): Promise<string[]> {
  let latest = '';
  for (const cutoff of cutoffs.values()) if (cutoff > latest) latest = cutoff;
  const expired: string[] = [];
  for (const month of await attachedMonths(db)) {
    if (monthAfter(month) > latest) break;
    if (await allPastIn(db, month, cutoffs)) expired.push(month);
  }
  return expired;
}

/** The company's highest feed position among the table's events. */
async function lastPositionIn(trx: Kysely<DB>, table: string, companyId: string): Promise<{ xid: number; seq: number }> {
  const { rows } = await sql<{ xid: string; seq: string }>`select feed_xid::text as xid, feed_seq as seq from ${sql.table(table)}
    where company_id = ${companyId} order by feed_xid desc, feed_seq desc limit 1`.execute(trx);
  return { xid: Number(rows[0]!.xid), seq: Number(rows[0]!.seq) };
}

/**
 * Inside the caller's transaction: detaches the month from `events` when it is still all past
 * (checked again with ingest held off by a SHARE lock, which reads pass), and answers each of its
 * companies with its highest feed position, for the caller's marks; null when it is not all
 * past any more, or not attached.
 */
export async function detachMonth(
  trx: Kysely<DB>,
  month: string,
  cutoffs: ReadonlyMap<string, string>,
): Promise<{ companyId: string; through: { xid: number; seq: number } }[] | null> {
  const table = partitionOf(month);
  await sql`set local lock_timeout = ${LOCK_TIMEOUT}`.execute(trx);
  await sql`lock table events in share mode`.execute(trx);
  if (!(await attachedMonths(trx)).includes(month)) return null;
  const companies = await companiesIn(trx, table);
  if (!allPast(month, companies, cutoffs)) return null;
  const marks = [];
  for (const companyId of companies) marks.push({ companyId, through: await lastPositionIn(trx, table, companyId) });
  await sql`alter table events detach partition ${sql.table(table)}`.execute(trx);
  return marks;
}

/**
 * Empties and drops the month tables that retention detached (including those a stopped sweep
 * left), a batch at a time: their rows of `event_ids`, then the `__contains` values that no
 * kept event carries, then the table. Answers the events dropped.
 */
export async function dropDetachedMonths(db: Kysely<DB>, batchSize: number): Promise<number> {
  const { rows } = await sql<{ name: string }>`select relname as name from pg_class
    where relnamespace = current_schema()::regnamespace and relkind = 'r' and not relispartition and relname ~ ${PARTITION_NAME}
    order by relname`.execute(db);
  let dropped = 0;
  for (const { name } of rows) {
    for (const companyId of await companiesIn(db, name)) {
      dropped += await forgetIdsOf(db, name, companyId, batchSize);
      await pruneValuesOf(db, name, companyId, batchSize);
    }
    await sql`drop table ${sql.table(name)}`.execute(db);
  }
  return dropped;
}

/**
 * The company's rows of `event_ids` for the detached table's events, in batches along its
 * (company_id, created_at, id) index. A row that an event still in `events` holds stays: one
 * replaced since the detach with the same created_at.
 */
async function forgetIdsOf(db: Kysely<DB>, table: string, companyId: string, batchSize: number): Promise<number> {
  const name = sql.table(table);
  let after: { created_at: string; id: string } | undefined;
  let count = 0;
  for (;;) {
    const from = after ? sql`and (created_at, id) > (${after.created_at}, ${after.id})` : sql``;
    const { rows } = await sql<{ created_at: string; id: string }>`select created_at, id from ${name}
      where company_id = ${companyId} ${from} order by created_at, id limit ${batchSize}`.execute(db);
    if (rows.length === 0) return count;
    await forgetEventIds(db, companyId, rows, { unlessKept: true });
    count += rows.length;
    after = rows.at(-1);
  }
}

/** The `__contains` values of the detached table's events that no kept event of the company carries leave the dictionary, a batch at a time. */
async function pruneValuesOf(db: Kysely<DB>, table: string, companyId: string, batchSize: number): Promise<void> {
  const name = sql.table(table);
  for (const field of CONTAINS_FIELDS) {
    const column = sql.ref(field);
    let after: string | undefined;
    for (;;) {
      const from = after === undefined ? sql`` : sql`and ${column} > ${after}`;
      // The distinct values after `after`, one probe of the key's index each.
      const { rows } = await sql<{ value: string }>`with recursive found(value, n) as (
          (select ${column}, 1 from ${name} where company_id = ${companyId} and ${column} is not null ${from} order by ${column} limit 1)
          union all
          select (select ${column} from ${name} where company_id = ${companyId} and ${column} > found.value order by ${column} limit 1), n + 1
          from found where found.value is not null and n < ${batchSize})
        select value from found where value is not null`.execute(db);
      if (rows.length === 0) break;
      const removed = rows.map((row) => ({ ...NO_KEYS, [field]: row.value }));
      await db.transaction().execute(async (trx) => {
        await lockKeyValuesForRemoval(trx, companyId);
        await pruneKeyValues(trx, companyId, removed);
      });
      after = rows.at(-1)!.value;
    }
  }
}

const NO_KEYS = Object.fromEntries(CONTAINS_FIELDS.map((field) => [field, null])) as unknown as RemovedKeyValues;
