import { sql, type Kysely } from 'kysely';
import { dialectOf } from './frozen/dialect.js';

/**
 * One row per company: a number bumped by every write transaction that can change what the
 * company's lists answer, so a list's ETag can name the state it was read from.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  await db.schema
    .createTable('data_versions')
    .addColumn('company_id', postgres ? sql`text collate "C"` : sql`text`, (col) => col.notNull().primaryKey())
    .addColumn('version', postgres ? 'bigint' : 'integer', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('data_versions').ifExists().execute();
}
