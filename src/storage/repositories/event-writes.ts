import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import { CONTAINS_FIELDS } from '../../domain/events/event-fields.js';
import type { StoredEvent } from '../../domain/events/event.js';
import { eventJson } from '../../domain/events/event-json.js';
import type { PreparedEvents } from '../../domain/events/events-repository.port.js';
import type { TransactionScope } from '../../domain/unit-of-work.js';
import type { Database } from '../database.js';
import { CopyData, copyIn } from '../postgres-copy.js';
import type { DB } from '../schema.js';
import { statementBatch } from '../sqlite-dialect.js';
import { EVENT_COLUMNS } from '../tables/events.js';

const COLUMNS = EVENT_COLUMNS;
const UPDATED_COLUMNS = COLUMNS.filter((column) => column !== 'company_id' && column !== 'id');
const COMPANY_ID_INDEX = COLUMNS.indexOf('company_id');
const EXCLUDED_INDEX = COLUMNS.indexOf('excluded');
/** What SQLite writes per event: the event, its JSON and its feed position. */
const SQLITE_WRITTEN_COLUMNS = [...COLUMNS, 'body', 'feed_seq'] as const;
const SQLITE_POSITION_INDEX = SQLITE_WRITTEN_COLUMNS.length - 1;

/**
 * Rows per write. SQLite runs one prepared single-row statement per row, so a batch only bounds
 * how long one synchronous stretch holds the event loop; PostgreSQL receives a batch as one
 * COPY, so its batches are bounded only by memory.
 */
const SQLITE_BATCH_ROWS = 1000;
const POSTGRES_BATCH_ROWS = 5000;
const KEY_VALUE_BATCH_ROWS = 5000;
/**
 * Events encoded between turns of the event loop while a batch is prepared: a write in flight
 * meanwhile is answered and goes on to its next statement, instead of the database waiting for
 * the whole batch to be encoded.
 */
const ENCODED_PER_TURN = 500;

/** Per `__contains` field, values of the company's events. */
type KeyValues = ReadonlyMap<string, ReadonlySet<string>>;

/** A batch in one database's form: its rows in slices (each one statement), and its dictionary values. */
interface PreparedBatch extends PreparedEvents {
  /** Taken out one by one as they are written, so that each is freed once stored. */
  readonly slices: unknown[];
  readonly keyValues: KeyValues;
}

/** Writes events: encoded ahead of the transaction (`prepare`), then stored inside it (`write`). */
export interface EventWriter {
  prepare(companyId: string, events: readonly StoredEvent[]): Promise<PreparedEvents>;
  /** Stores what `prepare` made inside the transaction `trx`, returning how many rows it wrote. */
  write(trx: Kysely<DB>, prepared: PreparedEvents): Promise<number>;
}

export function createEventWriter(dialect: Database['dialect']): EventWriter {
  const insert: (trx: Kysely<DB>, slice: unknown, companyId: string) => Promise<void> =
    dialect === 'postgres'
      ? (trx, slice) => insertPostgres(trx, slice as Buffer)
      : (trx, slice, companyId) => insertSqlite(trx, slice as readonly StoredEvent[], companyId);
  const encode = dialect === 'postgres' ? postgresSlices : sqliteSlices;
  return {
    async prepare(companyId, events) {
      const unique = lastOfEachId(events);
      const prepared: PreparedBatch = {
        companyId,
        rows: unique.length,
        slices: await encode(unique, companyId),
        keyValues: distinctKeyValues(unique),
      };
      return prepared;
    },
    async write(trx, prepared) {
      const batch = prepared as PreparedBatch;
      if (batch.rows > 0 && batch.slices.length === 0) throw new Error('a prepared batch of events was written twice');
      for (let slice = batch.slices.shift(); slice !== undefined; slice = batch.slices.shift()) await insert(trx, slice, batch.companyId);
      return batch.rows;
    },
  };
}

/**
 * The dictionary behind `__contains`: each new (field, value) of the company is added once per
 * transaction. Returns how many were new to the table.
 */
export async function rememberKeyValues(trx: Kysely<DB>, prepared: PreparedEvents, scope: TransactionScope): Promise<number> {
  const { companyId, keyValues } = prepared as PreparedBatch;
  const known = knownKeyValuesOf(scope, companyId);
  const fresh: { company_id: string; field: string; value: string }[] = [];
  for (const field of CONTAINS_FIELDS) {
    const seen = known.get(field)!;
    for (const value of keyValues.get(field)!) {
      if (seen.has(value)) continue;
      seen.add(value);
      fresh.push({ company_id: companyId, field, value });
    }
  }
  // In one order for every ingest, so that concurrent ones adding the same values cannot deadlock.
  fresh.sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  let added = 0;
  for (let start = 0; start < fresh.length; start += KEY_VALUE_BATCH_ROWS) {
    const [result] = await trx
      .insertInto('event_key_values')
      .values(fresh.slice(start, start + KEY_VALUE_BATCH_ROWS))
      .onConflict((oc) => oc.doNothing())
      .execute();
    added += Number(result?.numInsertedOrUpdatedRows ?? 0);
  }
  return added;
}

function distinctKeyValues(events: readonly StoredEvent[]): KeyValues {
  return new Map(
    CONTAINS_FIELDS.map((field) => {
      const values = new Set<string>();
      for (const event of events) {
        const value = event[field];
        if (value !== null) values.add(value);
      }
      return [field, values];
    }),
  );
}

/** The (field, value) pairs already added to the dictionary, per company, within one open transaction. */
const knownKeyValuesByScope = new WeakMap<TransactionScope, Map<string, Map<string, Set<string>>>>();

function knownKeyValuesOf(scope: TransactionScope, companyId: string): Map<string, Set<string>> {
  let byCompany = knownKeyValuesByScope.get(scope);
  if (byCompany === undefined) knownKeyValuesByScope.set(scope, (byCompany = new Map()));
  let known = byCompany.get(companyId);
  if (known === undefined) byCompany.set(companyId, (known = new Map(CONTAINS_FIELDS.map((field) => [field, new Set()]))));
  return known;
}

/**
 * SQLite's slices are the events themselves, encoded as they are written: SQLite writes on this
 * thread, so nothing overlaps, and rows made ahead would only live longer (through a garbage
 * collection or two) for nothing: encoded ahead, SQLite's ingest measured slower.
 */
async function sqliteSlices(events: readonly StoredEvent[]): Promise<(readonly StoredEvent[])[]> {
  const slices: (readonly StoredEvent[])[] = [];
  for (let start = 0; start < events.length; start += SQLITE_BATCH_ROWS) slices.push(events.slice(start, start + SQLITE_BATCH_ROWS));
  return slices;
}

/**
 * A single-row upsert, prepared once and run for every event of the slice (see statementBatch).
 * Each event takes the company's next feed position: the transaction holds SQLite's one write
 * lock, so positions are handed out in commit order.
 */
async function insertSqlite(trx: Kysely<DB>, events: readonly StoredEvent[], companyId: string): Promise<void> {
  let position = await lastSqlitePosition(trx, companyId);
  const rows = events.map((event) => {
    const row: unknown[] = new Array(SQLITE_WRITTEN_COLUMNS.length);
    putWrittenValues(row, 0, event, companyId);
    row[EXCLUDED_INDEX] = event.excluded ? 1 : 0;
    row[SQLITE_POSITION_INDEX] = ++position;
    return row;
  });
  await trx.executeQuery(statementBatch(sqliteUpsertSql(trx), rows));
}

/**
 * The company's last feed position on SQLite: its highest event's, or the highest retention
 * removed (events_removed) when that is higher, so that a position is never handed out twice.
 */
export async function lastSqlitePosition(executor: Kysely<DB>, companyId: string): Promise<number> {
  const { rows } = await sql<{ last: number | null }>`select max(
    coalesce((select max(feed_seq) from events where company_id = ${companyId}), 0),
    coalesce((select through_seq from events_removed where company_id = ${companyId}), 0)) as last`.execute(executor);
  return Number(rows[0]?.last ?? 0);
}

const replaceAllSqlite = Object.fromEntries([...UPDATED_COLUMNS, 'body', 'feed_seq'].map((column) => [column, sql.ref(`excluded.${column}`)])) as never;

let sqliteUpsertText: string | undefined;

function sqliteUpsertSql(trx: Kysely<DB>): string {
  if (sqliteUpsertText) return sqliteUpsertText;
  const parameterShapeRow = Object.fromEntries(SQLITE_WRITTEN_COLUMNS.map((column) => [column, null])) as never;
  const compiled = trx
    .insertInto('events')
    .values(parameterShapeRow)
    .onConflict((oc) => oc.columns(['company_id', 'id']).doUpdateSet(replaceAllSqlite))
    .compile();
  if (compiled.parameters.length !== SQLITE_WRITTEN_COLUMNS.length) throw new Error('unexpected parameters in the events upsert');
  sqliteUpsertText = compiled.sql;
  return sqliteUpsertText;
}

/** Where a PostgreSQL ingest's batch is copied first: a temporary table of each connection, emptied at every commit. */
const STAGING_TABLE = 'events_staging';
const STAGED_COLUMNS = ['ordinal', ...COLUMNS, 'body'];
/** The columns a PostgreSQL ingest writes. */
const WRITTEN_POSTGRES = sql.join([...COLUMNS, 'body'].map((column) => sql.ref(column)));
/** The transactions that have copied a batch into the staging table. */
const stagingInUse = new WeakSet<Kysely<DB>>();

/** Each slice as the data of one COPY (text format, as bytes), its rows numbered from 0 in the batch's order. */
async function postgresSlices(events: readonly StoredEvent[], companyId: string): Promise<Buffer[]> {
  const slices: Buffer[] = [];
  const row: unknown[] = new Array(STAGED_COLUMNS.length);
  for (let start = 0; start < events.length; start += POSTGRES_BATCH_ROWS) {
    const end = Math.min(start + POSTGRES_BATCH_ROWS, events.length);
    const data = new CopyData(Math.min(Math.ceil((end - start) * bytesPerStagedRow * 1.05), MAX_GUESSED_SLICE_BYTES));
    for (let i = start; i < end; i++) {
      if (i > 0 && i % ENCODED_PER_TURN === 0) await yieldToEventLoop();
      row[0] = i - start;
      putWrittenValues(row, 1, events[i]!, companyId);
      data.addRow(row);
    }
    const bytes = data.toBuffer();
    bytesPerStagedRow = bytes.length / (end - start);
    slices.push(bytes);
  }
  return slices;
}

/**
 * The size of the last staged row encoded, on average: the next slice's buffer is allocated at
 * about that size, so that it is rarely grown (each growth copies what it holds, and fresh
 * memory costs a page fault a page on first touch).
 */
let bytesPerStagedRow = 1024;
/** A guess from unusually large events before is not taken for more than this; the buffer grows beyond it as needed. */
const MAX_GUESSED_SLICE_BYTES = 16 << 20;

/**
 * The slice is copied (COPY, text format) into the staging table, then written by plain
 * `INSERT ... SELECT`: the backend parses COPY's rows for about half the CPU that it spends
 * parsing the same rows as one JSON parameter. `events` is partitioned by created_at
 * (migration 0022), so the uniqueness of (company_id, id) lives in `event_ids`: the batch's ids
 * are upserted there first, in id order (concurrent ingests that replace the same events lock
 * them in one order and never deadlock, and the second waits for the first's commit), each
 * answering the created_at of the event it replaces. A second statement, whose snapshot sees
 * what such a concurrent ingest committed, deletes those events from whichever partition holds
 * them. Each stored event then gets the feed position (this transaction's id, the next
 * sequence number) in the batch's order.
 */
async function insertPostgres(trx: Kysely<DB>, data: Buffer): Promise<void> {
  if (stagingInUse.has(trx)) {
    // A later slice of the same transaction: the staging table still holds the slice before.
    await sql`truncate ${sql.table(STAGING_TABLE)}`.execute(trx);
  } else {
    stagingInUse.add(trx);
    await sql`create temporary table if not exists ${sql.table(STAGING_TABLE)} on commit delete rows as
      select 0 as ordinal, ${WRITTEN_POSTGRES}, created_at as replaced_created_at from events with no data`.execute(trx);
  }
  await trx.executeQuery(copyIn(STAGING_TABLE, STAGED_COLUMNS, data));
  const { rows } = await sql<{ replaced: string }>`with claimed as (
      insert into event_ids (company_id, id, created_at)
      select company_id, id, created_at from ${sql.table(STAGING_TABLE)} order by id
      on conflict (company_id, id) do update set created_at = excluded.created_at, replaced_created_at = event_ids.created_at
      returning id, replaced_created_at)
    update ${sql.table(STAGING_TABLE)} as staged set replaced_created_at = claimed.replaced_created_at
    from claimed where staged.id = claimed.id and claimed.replaced_created_at is not null
    returning 1 as replaced`.execute(trx);
  if (rows.length > 0) {
    await sql`delete from events using ${sql.table(STAGING_TABLE)} as staged
      where staged.replaced_created_at is not null and events.company_id = staged.company_id
        and events.created_at = staged.replaced_created_at and events.id = staged.id`.execute(trx);
  }
  // Positions are drawn in the batch's order: PostgreSQL calls a volatile function of the target list after the sort.
  await sql`insert into events (${WRITTEN_POSTGRES}, feed_seq)
    select ${WRITTEN_POSTGRES}, nextval('events_feed_seq') from ${sql.table(STAGING_TABLE)} order by ordinal`.execute(trx);
}

/** The event's COLUMNS values, then its JSON, into `row` from index `at`: what both databases write of it. */
function putWrittenValues(row: unknown[], at: number, event: StoredEvent, companyId: string): void {
  for (let i = 0; i < COLUMNS.length; i++) row[at + i] = event[COLUMNS[i]!];
  row[at + COMPANY_ID_INDEX] = companyId;
  row[at + COLUMNS.length] = eventJson(event);
}

/** PostgreSQL refuses an upsert that touches the same row twice in one statement; within a batch the last event of an id wins. */
function lastOfEachId(events: readonly StoredEvent[]): readonly StoredEvent[] {
  const seen = new Set<string>();
  let duplicated = false;
  for (const event of events) {
    if (seen.has(event.id)) {
      duplicated = true;
      break;
    }
    seen.add(event.id);
  }
  if (!duplicated) return events;
  return [...new Map(events.map((event) => [event.id, event])).values()];
}
