import { sql, type Kysely } from 'kysely';
import { dialectOf } from './frozen/dialect.js';

/**
 * Company-level settings (one row per company, later settings join it as columns) and, for
 * retention of events, the highest change-feed position removed per company: a feed cursor
 * below it would skip removed events, so it is answered `410` instead (docs/data-lifecycle.md).
 * `retention_days`: NULL follows the deployment default (WRS_EVENT_RETENTION_DAYS), 0 keeps the
 * company's events forever whatever the default, N keeps N days.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const key = postgres ? sql`text collate "C"` : sql`text`;
  await db.schema
    .createTable('company_settings')
    .addColumn('company_id', key, (col) => col.notNull().primaryKey())
    .addColumn('retention_days', 'integer')
    .execute();
  await db.schema
    .createTable('events_removed')
    .addColumn('company_id', key, (col) => col.notNull().primaryKey())
    .addColumn('through_xid', 'bigint', (col) => col.notNull())
    .addColumn('through_seq', 'bigint', (col) => col.notNull())
    .addColumn('removed_at', key, (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('events_removed').ifExists().execute();
  await db.schema.dropTable('company_settings').ifExists().execute();
}
