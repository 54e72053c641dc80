import { sql, type Kysely } from 'kysely';
import { dialectOf } from './frozen/dialect.js';

/**
 * Change-feed cursors are sealed from this version on (docs/events.md, "Cursors"). A cursor of
 * the earlier form shows its position in clear and anyone can make one, so it is honoured only
 * up to where the company's feed stood at this upgrade: each company's row of `data_versions`
 * records that position (every company with events gets a row, at version 0 as before). On
 * PostgreSQL it is this transaction's id, below that of every later write; on SQLite, where
 * positions are the company's own, its last one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('data_versions').addColumn('legacy_cursor_xid', 'bigint').execute();
  await db.schema.alterTable('data_versions').addColumn('legacy_cursor_seq', 'bigint').execute();
  await sql`insert into data_versions (company_id, version) select distinct company_id, 0 from events where true
    on conflict (company_id) do nothing`.execute(db);
  if (dialectOf(db) === 'postgres') {
    await sql`update data_versions set legacy_cursor_xid = pg_current_xact_id()::text::bigint, legacy_cursor_seq = 0`.execute(db);
    return;
  }
  await sql`update data_versions set legacy_cursor_xid = 0,
    legacy_cursor_seq = coalesce((select max(feed_seq) from events where events.company_id = data_versions.company_id), 0)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('data_versions').dropColumn('legacy_cursor_seq').execute();
  await db.schema.alterTable('data_versions').dropColumn('legacy_cursor_xid').execute();
}
