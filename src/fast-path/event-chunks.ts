import type { EventListQuery } from '../domain/events/event-query.js';
import type { Database } from '../storage/database.js';
import type { RowChunks } from '../storage/read-snapshot.js';
import { compileEventPageCount, pageCount } from '../storage/repositories/event-query-compiler.js';
import { eventBodies, type EventPageRow } from '../storage/tables/events.js';
import { findContainsMatches } from './contains-matches.js';
import { joinedBodies } from './copy-binary-bodies.js';
import { eventPageStatement } from './event-page-reads.js';
import type { JoinedChunks, JoinedEvents } from './fast-path.js';
import { listChunkBytes } from './page-cache.js';

/**
 * The events repository's `openList` through the fast path's statements, from one snapshot: the
 * `__contains` filters' dictionary values found first (an IN list, or pages of a few values
 * merged), the count, then the page statement compiled once per shape (event-page-reads.ts).
 * PostgreSQL sends the rows by a binary COPY, whose stored JSON is joined as the bytes arrive
 * (copy-binary-bodies.ts); SQLite's rows are read a chunk at a time and written into one buffer.
 */
export async function openFastListChunks(database: Database, companyId: string, query: EventListQuery, chunkEvents: number): Promise<JoinedChunks> {
  const { db, dialect } = database;
  const snapshot = await database.openSnapshot();
  const close = () => snapshot.release();
  try {
    const matches = await findContainsMatches(db, dialect, companyId, query, (compiled) => snapshot.rows(compiled));
    if (matches === null) return { count: 0, next: async () => null, close };
    const [counted] = await snapshot.rows(compileEventPageCount(db, dialect, companyId, query, matches).compile());
    const count = pageCount(counted!.matching, query);
    if (count === 0) return { count, next: async () => null, close };
    const statement = eventPageStatement(db, dialect, companyId, query, matches);
    if (snapshot.copyOut) {
      const chunks = joinedBodies(snapshot.copyOut(statement), chunkEvents);
      return { count, next: async () => (await chunks.next()).value ?? null, close };
    }
    return { count, next: joinedRows(snapshot.chunks<EventPageRow>(statement, chunkEvents)), close };
  } catch (error) {
    await close();
    throw error;
  }
}

function joinedRows(rows: RowChunks<EventPageRow>): () => Promise<JoinedEvents | null> {
  return async () => {
    const events = eventBodies(await rows.next());
    return events.length === 0 ? null : { events: events.length, bytes: listChunkBytes('', events) };
  };
}
