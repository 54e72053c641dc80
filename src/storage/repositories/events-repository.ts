import { sql, type CompiledQuery, type Kysely } from 'kysely';
import { CONTAINS_FIELDS } from '../../domain/events/event-fields.js';
import type { EventFilter, EventListQuery } from '../../domain/events/event-query.js';
import type { StoredEvent } from '../../domain/events/event.js';
import { eventJson } from '../../domain/events/event-json.js';
import type { EventsRepository, FeedPage, VersionedEventPage } from '../../domain/events/events-repository.port.js';
import type { FeedPosition } from '../../domain/events/feed-position.js';
import type { TransactionScope } from '../../domain/unit-of-work.js';
import type { Database } from '../database.js';
import { primaryReads, type ReadRouting } from '../read-routing.js';
import type { DB } from '../schema.js';
import { statementBatch } from '../sqlite-dialect.js';
import { copyIn } from '../postgres-copy.js';
import { EVENT_COLUMNS, eventBodies } from '../tables/events.js';
import { executorOf } from '../unit-of-work.js';
import { openChangesChunks, openListChunks } from './event-chunks.js';
import { findContainsMatchesWithVersion } from './contains-matches.js';
import {
  afterFeedPosition,
  feedPage,
  ofFeedType,
  postgresFeedQuery,
  postgresHorizon,
  sqliteFeedQuery,
  type FeedRow,
} from './feed-queries.js';
import { eventPageStatement } from './event-page-statements.js';
import { createEventPageAnchors, readWithVersion, type EventPageAnchors, type PageStatement, type ReadRows } from './event-page-anchors.js';
import { createDataVersionsRepository } from './data-versions-repository.js';
import { createPostgresStatistics } from './postgres-statistics.js';

const COLUMNS = EVENT_COLUMNS;
const UPDATED_COLUMNS = COLUMNS.filter((column) => column !== 'company_id' && column !== 'id');
const COMPANY_ID_INDEX = COLUMNS.indexOf('company_id');
const EXCLUDED_INDEX = COLUMNS.indexOf('excluded');
/** What SQLite writes per event: the event, its JSON and its feed position. */
const SQLITE_WRITTEN_COLUMNS = [...COLUMNS, 'body', 'feed_seq'] as const;

/**
 * Rows per write. SQLite runs one prepared single-row statement per row, so a batch only bounds
 * how long one synchronous stretch holds the event loop; PostgreSQL receives a batch as one
 * COPY, so its batches are bounded only by memory.
 */
const SQLITE_BATCH_ROWS = 1000;
const POSTGRES_BATCH_ROWS = 5000;
const KEY_VALUE_BATCH_ROWS = 5000;

/**
 * Event pages (at once and in chunks) are read where `reads` sends them: a standby that has
 * caught up with the company, or the primary. The change feed stays on the primary: its
 * positions rest on the primary's transaction ids and snapshot horizon (feed-queries.ts).
 */
export function createEventsRepository(database: Database, reads: ReadRouting = primaryReads(database)): EventsRepository {
  const { db, dialect } = database;
  const insert = dialect === 'postgres' ? insertPostgres : insertSqlite;
  const batchRows = dialect === 'postgres' ? POSTGRES_BATCH_ROWS : SQLITE_BATCH_ROWS;
  const feed = dialect === 'postgres' ? postgresFeed(db) : sqliteFeed(db);
  const anchors = createEventPageAnchors();
  const statistics = dialect === 'postgres' ? createPostgresStatistics(db) : undefined;
  return {
    ...feed,

    list: (companyId, query) => reads.read(companyId, ({ db }) => listPage(db, dialect, companyId, query, anchors)),

    openList: (companyId, query, chunkEvents) => reads.read(companyId, (target) => openListChunks(target, companyId, query, chunkEvents)),

    openChanges: (companyId, after, limit, type, chunkEvents) => openChangesChunks(database, companyId, { after, limit, type }, chunkEvents),

    async hasEvents(companyId) {
      const row = await db.selectFrom('events').select('id').where('company_id', '=', companyId).limit(1).executeTakeFirst();
      return row !== undefined;
    },

    async write(companyId, events, scope) {
      const trx = executorOf(db, scope);
      const unique = lastOfEachId(events);
      for (let start = 0; start < unique.length; start += batchRows) {
        await insert(trx, unique.slice(start, start + batchRows), companyId);
      }
      const added = await rememberKeyValues(trx, companyId, unique, knownKeyValuesOf(scope, companyId));
      statistics?.addingDictionaryValues(added);
      return unique.length;
    },

    /**
     * The planner chooses between the created_at index and a key's index by how many rows it
     * expects; after a bulk ingest its statistics are refreshed. SQLite's `optimize` analyses
     * (with a bounded sample) only the tables that grew markedly since their last analysis;
     * on PostgreSQL see postgres-statistics.ts.
     */
    async afterBulkWrite(written) {
      if (statistics) await statistics.afterIngest(written);
      else await sql`pragma optimize = 0x10012`.execute(db);
    },
  };
}

/**
 * A page and the company's data version, read by one statement where it can be (so both come
 * from one snapshot). A page with `__contains` filters reads the version with the dictionary
 * values of its first filter, before its rows; one that came back empty (no row to carry the
 * version) has its version read, then its rows again.
 */
async function listPage(
  db: Kysely<DB>,
  dialect: Database['dialect'],
  companyId: string,
  query: EventListQuery,
  anchors: EventPageAnchors,
): Promise<VersionedEventPage> {
  const statement: PageStatement = (page, variant) => eventPageStatement(db, dialect, companyId, page, new Map(), variant);
  const read: ReadRows = async (compiled) => (await db.executeQuery(compiled)).rows;
  const readValues = async (compiled: CompiledQuery<{ value: string }>) => (await db.executeQuery(compiled)).rows;
  if (query.filters.some((filter) => filter.operator === 'contains')) {
    const { version, matches } = await findContainsMatchesWithVersion(db, dialect, companyId, query, readValues);
    // No stored value contains a substring: no event can match.
    if (matches === null) return { events: [], version };
    const { rows } = await db.executeQuery(eventPageStatement(db, dialect, companyId, query, matches));
    return { events: eventBodies(rows), version };
  }
  const versioned =
    query.offset > 0 ? await anchors.read(companyId, query, statement, read) : await readWithVersion(statement(query, { withVersion: true }), read);
  if (versioned.version !== undefined) return { events: eventBodies(versioned.rows), version: versioned.version };
  // An empty page carried no version: read it, then the page again after it.
  const version = await versionBefore(db, companyId);
  const { rows } = await db.executeQuery(eventPageStatement(db, dialect, companyId, query, new Map()));
  return { events: eventBodies(rows), version };
}

/** The data version readers of each database (primary, standby), compiled once. */
const versionReaders = new WeakMap<Kysely<DB>, ReturnType<typeof createDataVersionsRepository>>();

function versionBefore(db: Kysely<DB>, companyId: string): Promise<number> {
  let versions = versionReaders.get(db);
  if (!versions) versionReaders.set(db, (versions = createDataVersionsRepository(db)));
  return versions.current(companyId);
}

/** Per field, the values already added to the dictionary. */
type KnownKeyValues = Map<string, Set<string>>;

/** The (field, value) pairs already added to the dictionary, per company, within one open transaction. */
const knownKeyValuesByScope = new WeakMap<TransactionScope, Map<string, KnownKeyValues>>();

function knownKeyValuesOf(scope: TransactionScope, companyId: string): KnownKeyValues {
  let byCompany = knownKeyValuesByScope.get(scope);
  if (byCompany === undefined) knownKeyValuesByScope.set(scope, (byCompany = new Map()));
  let known = byCompany.get(companyId);
  if (known === undefined) byCompany.set(companyId, (known = new Map(CONTAINS_FIELDS.map((field) => [field, new Set()]))));
  return known;
}

/**
 * A single-row upsert, prepared once and run for every event of the batch (see statementBatch).
 * Each event takes the company's next feed position: the transaction holds SQLite's one write
 * lock, so positions are handed out in commit order.
 */
async function insertSqlite(trx: Kysely<DB>, events: readonly StoredEvent[], companyId: string): Promise<void> {
  let position = await lastSqlitePosition(trx, companyId);
  const rows = events.map((event) => {
    const row: unknown[] = new Array(SQLITE_WRITTEN_COLUMNS.length);
    putWrittenValues(row, 0, event, companyId);
    row[EXCLUDED_INDEX] = event.excluded ? 1 : 0;
    row[COLUMNS.length + 1] = ++position;
    return row;
  });
  await trx.executeQuery(statementBatch(sqliteUpsertSql(trx), rows));
}

async function lastSqlitePosition(executor: Kysely<DB>, companyId: string): Promise<number> {
  const row = await executor
    .selectFrom('events')
    .select((eb) => eb.fn.max('feed_seq').as('last'))
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return Number(row?.last ?? 0);
}

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
/** The columns a PostgreSQL ingest writes, and how a replaced event takes the new values. */
const WRITTEN_POSTGRES = sql.join([...COLUMNS, 'body'].map((column) => sql.ref(column)));
const REPLACED_POSTGRES = sql.join([...UPDATED_COLUMNS, 'body'].map((column) => sql`${sql.ref(column)} = excluded.${sql.ref(column)}`));
/** The transactions that have copied a batch into the staging table. */
const stagingInUse = new WeakSet<Kysely<DB>>();

/**
 * The batch is copied (COPY, text format) into the staging table, then written by one
 * `INSERT ... SELECT ... ON CONFLICT`: the backend parses COPY's rows for about half the CPU
 * that it spends parsing the same rows as one JSON parameter. Each stored or replaced event
 * gets the feed position (this transaction's id, the next sequence number) in the batch's order.
 */
async function insertPostgres(trx: Kysely<DB>, events: readonly StoredEvent[], companyId: string): Promise<void> {
  if (stagingInUse.has(trx)) {
    // A later batch of the same transaction: the staging table still holds the batch before.
    await sql`truncate ${sql.table(STAGING_TABLE)}`.execute(trx);
  } else {
    stagingInUse.add(trx);
    await sql`create temporary table if not exists ${sql.table(STAGING_TABLE)} on commit delete rows as
      select 0 as ordinal, ${WRITTEN_POSTGRES} from events with no data`.execute(trx);
  }
  await trx.executeQuery(copyIn(STAGING_TABLE, STAGED_COLUMNS, stagedRows(events, companyId)));
  // Positions are drawn in the batch's order (PostgreSQL calls a volatile function of the target
  // list after the sort), and rows are then written in id order: concurrent ingests that replace
  // the same events lock them in one order and never deadlock.
  await sql`insert into events (${WRITTEN_POSTGRES}, feed_seq)
    select ${WRITTEN_POSTGRES}, feed_seq from (
      select ${WRITTEN_POSTGRES}, nextval('events_feed_seq') as feed_seq from ${sql.table(STAGING_TABLE)} order by ordinal
    ) as numbered order by id
    on conflict (company_id, id) do update set ${REPLACED_POSTGRES}, feed_xid = pg_current_xact_id(), feed_seq = excluded.feed_seq`.execute(trx);
}

function* stagedRows(events: readonly StoredEvent[], companyId: string): Generator<unknown[]> {
  for (let ordinal = 0; ordinal < events.length; ordinal++) {
    const event = events[ordinal]!;
    const row: unknown[] = new Array(STAGED_COLUMNS.length);
    row[0] = ordinal;
    putWrittenValues(row, 1, event, companyId);
    yield row;
  }
}

/** The event's COLUMNS values, then its JSON, into `row` from index `at`: what both databases write of it. */
function putWrittenValues(row: unknown[], at: number, event: StoredEvent, companyId: string): void {
  for (let i = 0; i < COLUMNS.length; i++) row[at + i] = event[COLUMNS[i]!];
  row[at + COMPANY_ID_INDEX] = companyId;
  row[at + COLUMNS.length] = eventJson(event);
}

const replaceAllSqlite = Object.fromEntries(
  [...UPDATED_COLUMNS, 'body', 'feed_seq'].map((column) => [column, sql.ref(`excluded.${column}`)]),
) as never;

type FeedMethods = Pick<EventsRepository, 'feedPositionBefore' | 'changes' | 'feedEnd'>;

/** SQLite: see feed-queries.ts. */
function sqliteFeed(db: Kysely<DB>): FeedMethods {
  return {
    async feedPositionBefore(companyId, scope) {
      return { xid: 0, seq: await lastSqlitePosition(executorOf(db, scope), companyId) };
    },
    async changes(companyId, after, limit, type) {
      const rows = await sqliteFeedQuery(db, companyId, after, type).orderBy('feed_seq').limit(limit).execute();
      return feedPage(rows as unknown as FeedRow[], () => 0, false);
    },
    async feedEnd(companyId) {
      return { xid: 0, seq: await lastSqlitePosition(db, companyId) };
    },
  };
}

/** PostgreSQL: see feed-queries.ts. */
function postgresFeed(db: Kysely<DB>): FeedMethods {
  const horizon = async (): Promise<string> => (await postgresHorizon.execute(db)).rows[0]!.xmin;
  return {
    async feedPositionBefore(_companyId, scope) {
      const { rows } = await sql<{ xid: string }>`select pg_current_xact_id()::text as xid`.execute(executorOf(db, scope));
      return { xid: Number(rows[0]!.xid), seq: 0 };
    },
    async changes(companyId, after, limit, type) {
      const xmin = await horizon();
      const { rows } = await postgresFeedQuery(companyId, after, limit, type, xmin).$castTo<FeedRow>().execute(db);
      let heldBack = false;
      if (rows.length < limit) {
        const last = rows.length > 0 ? { xid: Number(rows[rows.length - 1]!.feed_xid), seq: Number(rows[rows.length - 1]!.feed_seq) } : after;
        const held = await sql<{ held: boolean }>`select exists (select 1 from events
          where company_id = ${companyId} ${ofFeedType(type)} and ${afterFeedPosition(last)} and feed_xid >= ${xmin}::xid8) as held`.execute(db);
        heldBack = held.rows[0]!.held;
      }
      return feedPage(rows, (row) => Number(row.feed_xid), heldBack);
    },
    async feedEnd() {
      return { xid: Number(await horizon()), seq: 0 };
    },
  };
}

/** The dictionary behind `__contains`: each new (field, value) of the company is added once. Returns how many were new to the table. */
async function rememberKeyValues(
  trx: Kysely<DB>,
  companyId: string,
  events: readonly StoredEvent[],
  known: KnownKeyValues,
): Promise<number> {
  const fresh: { company_id: string; field: string; value: string }[] = [];
  for (const field of CONTAINS_FIELDS) {
    const seen = known.get(field)!;
    for (const event of events) {
      const value = event[field];
      if (value === null || seen.has(value)) continue;
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

/** PostgreSQL refuses an upsert that touches the same row twice in one statement. */
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
