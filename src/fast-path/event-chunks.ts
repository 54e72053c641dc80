import type { EventListQuery } from '../domain/events/event-query.js';
import type { EventJson } from '../domain/events/event.js';
import type { EventChunks } from '../domain/events/events-repository.port.js';
import type { Database } from '../storage/database.js';
import type { ReadSnapshot } from '../storage/read-snapshot.js';
import { emptyChunks, withSnapshot } from '../storage/repositories/event-chunks.js';
import { compileEventPageCount, pageCount } from '../storage/repositories/event-query-compiler.js';
import { eventBodies, type EventPageRow } from '../storage/tables/events.js';
import { findContainsMatches } from './contains-matches.js';
import { eventPageStatement } from './event-page-reads.js';

/**
 * The events repository's `openList` through the fast path's statements: the `__contains`
 * filters' dictionary values found first (an IN list, or pages of a few values merged), the
 * count, then the page statement compiled once per shape (event-page-reads.ts).
 */
export async function openFastListChunks(
  database: Database,
  companyId: string,
  query: EventListQuery,
  chunkEvents: number,
): Promise<EventChunks<readonly EventJson[]>> {
  const { db, dialect } = database;
  const open = async (snapshot: ReadSnapshot) => {
    const matches = await findContainsMatches(db, dialect, companyId, query, (compiled) => snapshot.rows(compiled));
    if (matches === null) return { count: 0, rows: emptyChunks<EventPageRow>() };
    const [counted] = await snapshot.rows(compileEventPageCount(db, dialect, companyId, query, matches).compile());
    const count = pageCount(counted!.matching, query);
    if (count === 0) return { count, rows: emptyChunks<EventPageRow>() };
    return { count, rows: snapshot.chunks<EventPageRow>(eventPageStatement(db, dialect, companyId, query, matches), chunkEvents) };
  };
  return withSnapshot(database, open, eventBodies);
}
