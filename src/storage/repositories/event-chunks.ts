import type { EventListQuery } from '../../domain/events/event-query.js';
import type { EventJson } from '../../domain/events/event.js';
import type { EventChunks, FeedChunk } from '../../domain/events/events-repository.port.js';
import type { FeedPosition } from '../../domain/events/feed-position.js';
import type { Database } from '../database.js';
import type { ReadSnapshot, RowChunks } from '../read-snapshot.js';
import { eventPageCountQuery, eventPageQuery } from './event-list-query.js';
import { eventBodies } from '../tables/events.js';
import { feedPage, postgresFeedCount, postgresFeedQuery, postgresHorizon, sqliteFeedQuery, type FeedRow } from './feed-queries.js';

/**
 * A page of events read in chunks from one snapshot: the count first (counted, not read), then
 * the very query a page read at once runs, so the rows and their order are the same.
 */
export async function openListChunks(
  database: Database,
  companyId: string,
  query: EventListQuery,
  chunkEvents: number,
): Promise<EventChunks<readonly EventJson[]>> {
  const { db, dialect } = database;
  const open = async (snapshot: ReadSnapshot) => {
    const [counted] = await snapshot.rows(eventPageCountQuery(db, dialect, companyId, query).compile());
    const count = Math.max(0, Number(counted!.matching) - query.offset);
    if (count === 0) return { count, rows: emptyChunks<{ body: EventJson }>() };
    return { count, rows: snapshot.chunks<{ body: EventJson }>(eventPageQuery(db, dialect, companyId, query).compile(), chunkEvents) };
  };
  return withSnapshot(database, open, eventBodies);
}

/** The change feed's next events read in chunks from one snapshot (see feed-queries.ts). */
export async function openChangesChunks(
  database: Database,
  companyId: string,
  { after, limit, type }: { after: FeedPosition; limit: number; type: string | null },
  chunkEvents: number,
): Promise<EventChunks<FeedChunk>> {
  const { db, dialect } = database;
  if (dialect === 'sqlite') {
    const open = async (snapshot: ReadSnapshot) => {
      const feed = sqliteFeedQuery(db, companyId, after, type);
      const bounded = feed.clearSelect().select('feed_seq').limit(limit).as('bounded');
      const [counted] = await snapshot.rows(
        db
          .selectFrom(bounded)
          .select((eb) => eb.fn.countAll<number>().as('matching'))
          .compile(),
      );
      const rows = snapshot.chunks<FeedRow>(feed.orderBy('feed_seq').limit(limit).compile() as never, chunkEvents);
      return { count: Number(counted!.matching), rows };
    };
    return withSnapshot(database, open, (rows) => feedPage(rows, () => 0, false));
  }
  const open = async (snapshot: ReadSnapshot) => {
    // The horizon of this snapshot: every event older than it is visible to the page.
    const [{ xmin }] = (await snapshot.rows(postgresHorizon.compile(db))) as [{ xmin: string }];
    const [counted] = await snapshot.rows(postgresFeedCount(companyId, after, limit, type, xmin).compile(db));
    const rows = snapshot.chunks<FeedRow>(postgresFeedQuery(companyId, after, limit, type, xmin).compile(db), chunkEvents);
    return { count: Number(counted!.matching), rows };
  };
  return withSnapshot(database, open, (rows) => feedPage(rows, (row) => Number(row.feed_xid), false));
}

/** Reads `open` makes from one snapshot, released when the chunks are closed or opening fails. */
export async function withSnapshot<Row, Chunk>(
  database: Database,
  open: (snapshot: ReadSnapshot) => Promise<{ count: number; rows: RowChunks<Row> }>,
  toChunk: (rows: Row[]) => Chunk,
): Promise<EventChunks<Chunk>> {
  const snapshot = await database.openSnapshot();
  try {
    const { count, rows } = await open(snapshot);
    return {
      count,
      next: async () => toChunk(await rows.next()),
      close: () => snapshot.release(),
    };
  } catch (error) {
    await snapshot.release();
    throw error;
  }
}

export function emptyChunks<R>(): RowChunks<R> {
  return { next: async () => [] };
}
