import { sql, type Kysely } from 'kysely';
import type { EventJson } from '../../domain/events/event.js';
import type { FeedPage } from '../../domain/events/events-repository.port.js';
import type { FeedPosition } from '../../domain/events/feed-position.js';
import type { DB } from '../schema.js';

/**
 * The change-feed reads, shared by a page read at once (events-repository.ts) and one read in
 * chunks (event-chunks.ts). SQLite: positions are commit-ordered, so a page simply reads past
 * the cursor. PostgreSQL: transactions commit in any order, so a page reads only events of
 * transactions older than the snapshot's xmin (all of them have ended; every later one gets a
 * larger id).
 */
export function sqliteFeedQuery(db: Kysely<DB>, companyId: string, after: FeedPosition, type: string | null) {
  let query = db.selectFrom('events').select(['body', 'feed_seq']).where('company_id', '=', companyId);
  if (type !== null) query = query.where('type', '=', type);
  return query.where('feed_seq', '>', after.seq);
}

export const postgresHorizon = sql<{ xmin: string }>`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`;

export const afterFeedPosition = (after: FeedPosition) => sql`(feed_xid, feed_seq) > (${String(after.xid)}::xid8, ${after.seq})`;

export const ofFeedType = (type: string | null) => (type === null ? sql`` : sql`and type = ${type}`);

/**
 * Committed events after a position, older than the horizon, in feed order. The order names the
 * table's columns: a bare `feed_xid` in ORDER BY would be the text column of the select list,
 * and `'1000' < '999'` as text.
 */
export function postgresFeedQuery(companyId: string, after: FeedPosition, limit: number, type: string | null, xmin: string) {
  return sql`select body, feed_xid::text as feed_xid, feed_seq from events
    where company_id = ${companyId} ${ofFeedType(type)} and ${afterFeedPosition(after)} and feed_xid < ${xmin}::xid8
    order by events.feed_xid, events.feed_seq limit ${limit}`;
}

/**
 * How many events postgresFeedQuery reads, counted up to the limit in the feed's order: it walks
 * the feed's index as the page does. In no order, a company holding much of the table is counted
 * by a sequential scan that starts where the last scan of the table left off (see
 * compileEventPageCount).
 */
export function postgresFeedCount(companyId: string, after: FeedPosition, limit: number, type: string | null, xmin: string) {
  return sql<{ matching: number }>`select count(*) as matching from (select 1 from events
    where company_id = ${companyId} ${ofFeedType(type)} and ${afterFeedPosition(after)} and feed_xid < ${xmin}::xid8
    order by events.feed_xid, events.feed_seq limit ${limit}) as bounded`;
}

export interface FeedRow {
  body: EventJson;
  feed_seq: number;
  feed_xid?: string;
}

export function feedPage(rows: FeedRow[], xidOf: (row: FeedRow) => number, heldBack: boolean): FeedPage {
  const positions: FeedPosition[] = new Array(rows.length);
  const events: EventJson[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    positions[i] = { xid: xidOf(row), seq: Number(row.feed_seq) };
    events[i] = row.body;
  }
  return { events, positions, heldBack };
}
