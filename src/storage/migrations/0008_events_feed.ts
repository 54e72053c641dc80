import { sql, type Kysely } from 'kysely';
import { dialectOf } from './frozen/dialect.js';

/**
 * The change feed's position of every event (docs/events.md, "How the feed never skips"):
 * - SQLite: `feed_seq`, assigned under the one writer's lock, so the order of positions is
 *   the order of commits;
 * - PostgreSQL: `feed_xid` (the writing transaction's id) and `feed_seq` (a sequence, in request
 *   order); a page reads only below the oldest open transaction.
 * Events stored before get positions in their (created_at, id) order. Replacing an event gives
 * it a new position.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`create sequence events_feed_seq as bigint`.execute(db);
    await sql`alter table events add column feed_xid xid8, add column feed_seq bigint`.execute(db);
    // The migration's own transaction id is below that of every later write.
    await sql`update events set feed_xid = pg_current_xact_id(), feed_seq = ranked.n
      from (select company_id, id, row_number() over (order by created_at, id) as n from events) as ranked
      where events.company_id = ranked.company_id and events.id = ranked.id`.execute(db);
    await sql`select setval('events_feed_seq', greatest(1, (select coalesce(max(feed_seq), 0) from events)))`.execute(db);
    await sql`alter table events
      alter column feed_xid set default pg_current_xact_id(), alter column feed_xid set not null,
      alter column feed_seq set default nextval('events_feed_seq'), alter column feed_seq set not null`.execute(db);
    await sql`create index events_feed_idx on events (company_id, feed_xid, feed_seq)`.execute(db);
    await sql`create index events_feed_type_idx on events (company_id, type, feed_xid, feed_seq)`.execute(db);
    return;
  }
  await sql`alter table events add column feed_seq integer not null default 0`.execute(db);
  await sql`update events set feed_seq = ranked.n
    from (select rowid as row, row_number() over (partition by company_id order by created_at, id) as n from events) as ranked
    where events.rowid = ranked.row`.execute(db);
  await sql`create index events_feed_idx on events (company_id, feed_seq)`.execute(db);
  await sql`create index events_feed_type_idx on events (company_id, type, feed_seq)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists events_feed_type_idx`.execute(db);
  await sql`drop index if exists events_feed_idx`.execute(db);
  if (dialectOf(db) === 'postgres') {
    await sql`alter table events drop column feed_xid, drop column feed_seq`.execute(db);
    await sql`drop sequence events_feed_seq`.execute(db);
    return;
  }
  await sql`alter table events drop column feed_seq`.execute(db);
}
