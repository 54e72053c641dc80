import { sql, type Kysely } from 'kysely';
import type { EventListQuery } from '../../domain/events/event-query.js';
import type { EventsRepository, VersionedEventPage } from '../../domain/events/events-repository.port.js';
import type { Database } from '../database.js';
import { gatheredReadOf } from '../gathered-reads.js';
import { primaryReads, type ReadRouting } from '../read-routing.js';
import type { DB } from '../schema.js';
import { eventBodies } from '../tables/events.js';
import { executorOf } from '../unit-of-work.js';
import { openChangesChunks, openListChunks } from './event-chunks.js';
import { findContainsMatchesWithVersion } from './contains-matches.js';
import { afterFeedPosition, feedPage, ofFeedType, postgresFeedQuery, postgresHorizon, sqliteFeedQuery, type FeedRow } from './feed-queries.js';
import { eventPageStatement } from './event-page-statements.js';
import { createEventPageAnchors, readWithVersion, type EventPageAnchors, type PageStatement } from './event-page-anchors.js';
import { createDataVersionsRepository } from './data-versions-repository.js';
import { createPostgresStatistics } from './postgres-statistics.js';
import { createEventWriter, lastSqlitePosition, rememberKeyValues } from './event-writes.js';
import { lockKeyValuesForAdding } from './key-value-pruning.js';

/**
 * Event pages (at once and in chunks) are read where `reads` sends them: a standby that has
 * caught up with the company, or the primary. The change feed stays on the primary: its
 * positions rest on the primary's transaction ids and snapshot horizon (feed-queries.ts).
 */
export function createEventsRepository(database: Database, reads: ReadRouting = primaryReads(database)): EventsRepository {
  const { db, dialect } = database;
  const writer = createEventWriter(dialect);
  const feed = dialect === 'postgres' ? postgresFeed(db) : sqliteFeed(db);
  const anchors = createEventPageAnchors();
  const statistics = dialect === 'postgres' ? createPostgresStatistics(db) : undefined;
  return {
    ...feed,

    list: (companyId, query) => reads.read(companyId, ({ db }) => listPage(db, dialect, companyId, query, anchors)),

    openList: (companyId, query, chunkEvents) => reads.read(companyId, (target) => openListChunks(target, companyId, query, chunkEvents)),

    openChanges: (companyId, after, limit, type, chunkEvents) => openChangesChunks(database, companyId, { after, limit, type }, chunkEvents),

    async legacyCursorLimit(companyId) {
      const row = await db
        .selectFrom('data_versions')
        .select(['legacy_cursor_xid', 'legacy_cursor_seq'])
        .where('company_id', '=', companyId)
        .executeTakeFirst();
      if (row?.legacy_cursor_xid == null || row.legacy_cursor_seq == null) return null;
      return { xid: Number(row.legacy_cursor_xid), seq: Number(row.legacy_cursor_seq) };
    },

    async removedThrough(companyId) {
      const row = await db.selectFrom('events_removed').select(['through_xid', 'through_seq']).where('company_id', '=', companyId).executeTakeFirst();
      return row === undefined ? null : { xid: Number(row.through_xid), seq: Number(row.through_seq) };
    },

    // Read from the (company_id, type, ...) index alone; one row per type.
    typeCounts: (companyId) =>
      reads.read(companyId, async ({ db }) => {
        const rows = await db
          .selectFrom('events')
          .select(['type', (eb) => eb.fn.countAll<number | string>().as('count')])
          .where('company_id', '=', companyId)
          .groupBy('type')
          .orderBy('type')
          .execute();
        return rows.map((row) => ({ type: row.type, count: Number(row.count) }));
      }),

    async hasEvents(companyId) {
      const row = await db.selectFrom('events').select('id').where('company_id', '=', companyId).limit(1).executeTakeFirst();
      return row !== undefined;
    },

    prepare: (companyId, events) => writer.prepare(companyId, events),

    async write(prepared, scope) {
      const trx = executorOf(db, scope);
      await lockKeyValuesForAdding(trx, scope, prepared.companyId);
      const written = await writer.write(trx, prepared);
      const added = await rememberKeyValues(trx, prepared, scope);
      statistics?.addingDictionaryValues(added);
      return written;
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
  // Every read of the page gathered with the turn's other reads (gathered-reads.ts).
  const rowsOf = gatheredReadOf(db);
  if (query.filters.some((filter) => filter.operator === 'contains')) {
    const { version, matches } = await findContainsMatchesWithVersion(db, dialect, companyId, query, rowsOf);
    // No stored value contains a substring: no event can match.
    if (matches === null) return { events: [], version };
    return { events: eventBodies(await rowsOf(eventPageStatement(db, dialect, companyId, query, matches))), version };
  }
  if (query.offset === 0 && dialect === 'sqlite') {
    const [version, ...events] = eventBodies(await rowsOf(statement(query, { versionRowFirst: true })));
    return { events, version: Number(version) };
  }
  const versioned =
    query.offset > 0 ? await anchors.read(companyId, query, statement, rowsOf) : await readWithVersion(statement(query, { withVersion: true }), rowsOf);
  if (versioned.version !== undefined) return { events: eventBodies(versioned.rows), version: versioned.version };
  // An empty page carried no version: read it, then the page again after it.
  const version = await versionBefore(db, companyId);
  return { events: eventBodies(await rowsOf(statement(query, {}))), version };
}

/** The data version readers of each database (primary, standby), compiled once. */
const versionReaders = new WeakMap<Kysely<DB>, ReturnType<typeof createDataVersionsRepository>>();

function versionBefore(db: Kysely<DB>, companyId: string): Promise<number> {
  let versions = versionReaders.get(db);
  if (!versions) versionReaders.set(db, (versions = createDataVersionsRepository(db)));
  return versions.current(companyId);
}

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
