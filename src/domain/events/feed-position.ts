/**
 * Where an event sits in the change feed. Positions are ordered by (xid, seq): on PostgreSQL
 * `xid` is the id of the transaction that stored the event and `seq` a sequence number drawn in
 * request order; on SQLite `xid` is always 0 and `seq` is assigned under the one writer's lock.
 */
export interface FeedPosition {
  readonly xid: number;
  readonly seq: number;
}

/** Before every event: a feed read from here starts at the beginning. */
export const FEED_START: FeedPosition = Object.freeze({ xid: 0, seq: 0 });

export function comparePositions(a: FeedPosition, b: FeedPosition): number {
  return a.xid - b.xid || a.seq - b.seq;
}
