import { sql, type Kysely } from 'kysely';
import type { EventsRepository } from '../../domain/events/events-repository.port.js';
import { eventPageQuery } from './event-list-query.js';
import type { Database } from '../database.js';
import { primaryReads, type ReadRouting } from '../read-routing.js';
import type { DB } from '../schema.js';
import { executorOf } from '../unit-of-work.js';
import { openChangesChunks, openListChunks } from './event-chunks.js';
import { afterFeedPosition, feedPage, ofFeedType, postgresFeedQuery, postgresHorizon, sqliteFeedQuery, type FeedRow } from './feed-queries.js';
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
  const statistics = dialect === 'postgres' ? createPostgresStatistics(db) : undefined;
  return {
    ...feed,

    // select body from events where company_id = ? and <filters> order by <field>, id limit ? offset ?
    list: (companyId, query) =>
      reads.read(companyId, async ({ db, dialect }) => {
        const rows = await eventPageQuery(db, dialect, companyId, query).execute();
        return rows.map((row) => row.body);
      }),

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
