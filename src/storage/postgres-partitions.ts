import { sql, type Kysely } from 'kysely';
import { CONTAINS_FIELDS } from '../domain/events/event-fields.js';
import type { FeedPosition } from '../domain/events/feed-position.js';
import type { DB } from './schema.js';
import { inTransaction } from './unit-of-work.js';
import { lockKeyValuesForRemoval } from './repositories/key-value-pruning.js';

/**
 * PostgreSQL's events are partitioned by month of `created_at` (migration 0021; the data
 * lifecycle guide, "Partitions of events on PostgreSQL"). A month `2026-03` is the table
 * `event_partitions.events_p2026_03` holding created_at from '2026-03' up to '2026-04' (strings in binary
 * collation, so every timestamp of the month and nothing else); `events_default` holds what no
 * month holds yet. This module is the one place that knows it: it makes months ahead, moves a
 * month's rows out of the default partition once the month gets its own, and removes a whole
 * month when every company in it may lose it.
 */
const SCHEMA = 'event_partitions';
const DEFAULT_PARTITION = `${SCHEMA}.events_default`;
/** Months made ahead of the current one. */
const MONTHS_AHEAD = 3;
/** A month partition's table name. */
const MONTH_TABLE = /^events_p(\d{4})_(\d{2})$/;
/** How long partition DDL waits for the table's lock before giving up until the next sweep. */
const LOCK_TIMEOUT = '10s';
/** Identities of a removed month cleared per statement. */
const IDENTITY_BATCH = 10_000;

/** What a removed month held of one company. */
export interface RemovedMonthOfCompany {
  readonly companyId: string;
  readonly removed: number;
  /** The highest feed position removed. */
  readonly through: FeedPosition;
}

export interface PostgresPartitions {
  /** Makes the months from the previous one to MONTHS_AHEAD ahead, and a month for rows of the default partition that have one due. */
  makeMonthsAhead(now: Date): Promise<void>;
  /** The oldest month whose every event is before its company's cutoff (`cutoffs`: a company missing keeps its events). */
  expiredMonth(executor: Kysely<DB>, cutoffs: ReadonlyMap<string, string>): Promise<string | undefined>;
  /**
   * Detaches the month inside `trx` if it still qualifies; answers what each company lost, or
   * undefined. `finishRemovedMonths` then clears it away.
   */
  detachMonth(trx: Kysely<DB>, month: string, cutoffs: ReadonlyMap<string, string>): Promise<RemovedMonthOfCompany[] | undefined>;
  /** For each detached month: prunes the `__contains` dictionary, clears its identities in batches, drops the table. */
  finishRemovedMonths(): Promise<void>;
}

export function createPostgresPartitions(db: Kysely<DB>): PostgresPartitions {
  const attachedMonths = async (executor: Kysely<DB>): Promise<string[]> => {
    const { rows } = await sql<{ name: string }>`select child.relname as name from pg_inherits
      join pg_class child on child.oid = pg_inherits.inhrelid
      where pg_inherits.inhparent = 'events'::regclass and child.relnamespace = ${SCHEMA}::regnamespace`.execute(executor);
    return monthsOf(rows.map((row) => row.name));
  };

  const createMonth = (month: string) =>
    inTransaction(db, async (trx) => {
      await sql.raw(`set local lock_timeout = '${LOCK_TIMEOUT}'`).execute(trx);
      const bounds = sql`created_at >= ${month} and created_at < ${nextMonth(month)}`;
      const { rows } = await sql<{ held: boolean }>`select exists (select 1 from ${sql.table(DEFAULT_PARTITION)} where ${bounds}) as held`.execute(trx);
      if (!rows[0]?.held) {
        await sql.raw(`create table if not exists ${tableOf(month)} partition of events ${boundsOf(month)}`).execute(trx);
        return;
      }
      // The default partition may not keep rows of a month that has its own: they move, with their
      // feed positions, in this one transaction (directly on the partition: the identities stay).
      await sql`create temporary table events_moving on commit drop as
        with moved as (delete from ${sql.table(DEFAULT_PARTITION)} where ${bounds} returning *) select * from moved`.execute(trx);
      await sql.raw(`create table ${tableOf(month)} partition of events ${boundsOf(month)}`).execute(trx);
      await sql`insert into events select * from events_moving`.execute(trx);
    });

  return {
    async makeMonthsAhead(now) {
      const wanted = new Set<string>();
      for (let ahead = -1; ahead <= MONTHS_AHEAD; ahead++) wanted.add(monthOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + ahead, 1))));
      const horizon = [...wanted].sort().at(-1)!;
      const { rows } = await sql<{ month: string }>`select distinct left(created_at, 7) as month from ${sql.table(DEFAULT_PARTITION)}
        where created_at ~ '^[0-9]{4}-[0-9]{2}' and created_at < ${nextMonth(horizon)}`.execute(db);
      for (const row of rows) wanted.add(row.month);
      const attached = new Set(await attachedMonths(db));
      for (const month of [...wanted].sort()) if (!attached.has(month)) await createMonth(month);
    },

    async expiredMonth(executor, cutoffs) {
      if (cutoffs.size === 0) return undefined;
      const latest = [...cutoffs.values()].sort().at(-1)!;
      for (const month of (await attachedMonths(executor)).sort()) {
        if (nextMonth(month) > latest) return undefined;
        if (await expired(executor, month, cutoffs)) return month;
      }
      return undefined;
    },

    async detachMonth(trx, month, cutoffs) {
      const table = sql.table(tableOf(month));
      await sql.raw(`set local lock_timeout = '${LOCK_TIMEOUT}'`).execute(trx);
      // Writes wait (reads go on) from here: no event comes into the month between the check and the detach.
      await sql`lock table events in share row exclusive mode`.execute(trx);
      if (!(await attachedMonths(trx)).includes(month) || !(await expired(trx, month, cutoffs))) return undefined;
      const lost: RemovedMonthOfCompany[] = [];
      for (const companyId of await companiesIn(trx, tableOf(month))) {
        const { rows } = await sql<{ removed: string; xid: string; seq: string }>`select
          (select count(*) from ${table} where company_id = ${companyId}) as removed, last.xid, last.seq
          from (select feed_xid::text as xid, feed_seq as seq from ${table} where company_id = ${companyId}
            order by feed_xid desc, feed_seq desc limit 1) as last`.execute(trx);
        const row = rows[0]!;
        lost.push({ companyId, removed: Number(row.removed), through: { xid: Number(row.xid), seq: Number(row.seq) } });
      }
      await sql.raw(`alter table events detach partition ${tableOf(month)}`).execute(trx);
      return lost;
    },

    async finishRemovedMonths() {
      const { rows } = await sql<{ name: string }>`select relname as name from pg_class
        where relnamespace = ${SCHEMA}::regnamespace and relkind = 'r' and not relispartition`.execute(db);
      for (const month of monthsOf(rows.map((row) => row.name))) await finishRemovedMonth(db, tableOf(month));
    },
  };
}

/** Whether every company with rows in the month has a cutoff at or after the month's end. */
async function expired(executor: Kysely<DB>, month: string, cutoffs: ReadonlyMap<string, string>): Promise<boolean> {
  const end = nextMonth(month);
  const companies = await companiesIn(executor, tableOf(month));
  return companies.length > 0 && companies.every((company) => end <= (cutoffs.get(company) ?? ''));
}

/** The companies with rows in a partition, one index probe each (a loose scan of its created index). */
async function companiesIn(executor: Kysely<DB>, table: string): Promise<string[]> {
  const { rows } = await sql<{ company_id: string }>`with recursive companies as (
      select min(company_id) as company_id from ${sql.table(table)}
      union all
      select (select min(company_id) from ${sql.table(table)} where company_id > companies.company_id) from companies
        where companies.company_id is not null)
    select company_id from companies where company_id is not null`.execute(executor);
  return rows.map((row) => row.company_id);
}

/**
 * A detached month leaves: per company, the dictionary values only it carried (under the
 * dictionary's removal lock, see key-value-pruning.ts); then its rows' identities, in batches,
 * except those of an event stored again since under the same key; then the table. Each step can
 * run again after a crash.
 */
async function finishRemovedMonth(db: Kysely<DB>, table: string): Promise<void> {
  const month = sql.table(table);
  for (const companyId of await companiesIn(db, table)) {
    await inTransaction(db, async (trx) => {
      await lockKeyValuesForRemoval(trx, companyId);
      for (const field of CONTAINS_FIELDS) {
        const column = sql.ref(field);
        await sql`delete from event_key_values where company_id = ${companyId} and field = ${field}
          and exists (select 1 from ${month} where company_id = ${companyId} and ${column} = event_key_values.value)
          and not exists (select 1 from events where company_id = ${companyId} and ${column} = event_key_values.value)`.execute(trx);
      }
    });
  }
  let after: [string, string, string] = ['', '', ''];
  for (;;) {
    const { rows } = await sql<{ company_id: string; id: string; created_at: string }>`select company_id, id, created_at from ${month}
      where (company_id, id, created_at) > (${after[0]}, ${after[1]}, ${after[2]}) order by company_id, id, created_at limit ${IDENTITY_BATCH}`.execute(db);
    if (rows.length === 0) break;
    const last = rows.at(-1)!;
    after = [last.company_id, last.id, last.created_at];
    await sql`delete from ${sql.table(`${SCHEMA}.event_ids`)} as event_ids using unnest(${rows.map((row) => row.company_id)}::text[], ${rows.map((row) => row.id)}::text[],
        ${rows.map((row) => row.created_at)}::text[]) as gone(company_id, id, created_at)
      where event_ids.company_id = gone.company_id and event_ids.id = gone.id and event_ids.created_at = gone.created_at
        and not exists (select 1 from events where events.company_id = gone.company_id and events.id = gone.id
          and events.created_at = gone.created_at)`.execute(db);
  }
  await sql.raw(`drop table ${table}`).execute(db);
}

function monthsOf(names: readonly string[]): string[] {
  return names.flatMap((name) => {
    const match = MONTH_TABLE.exec(name);
    return match ? [`${match[1]}-${match[2]}`] : [];
  });
}

function tableOf(month: string): string {
  return `${SCHEMA}.events_p${month.replace('-', '_')}`;
}

function boundsOf(month: string): string {
  return `for values from ('${month}') to ('${nextMonth(month)}')`;
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
