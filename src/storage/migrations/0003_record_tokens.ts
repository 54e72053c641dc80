import { sql, type Kysely } from 'kysely';
import { dialectOf } from './frozen/dialect.js';

/** Record token documents: a token is honoured only while its document is live. */
export async function up(db: Kysely<any>): Promise<void> {
  const key = dialectOf(db) === 'postgres' ? sql`text collate "C"` : sql`text`;
  await db.schema
    .createTable('record_tokens')
    .addColumn('company_id', key, (col) => col.notNull())
    .addColumn('key', key, (col) => col.notNull())
    .addColumn('record_id', key, (col) => col.notNull())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('created_at', key, (col) => col.notNull())
    .addColumn('expires_at', key, (col) => col.notNull())
    .addColumn('revoked_at', key)
    .addPrimaryKeyConstraint('record_tokens_pk', ['company_id', 'key'])
    .execute();
  await db.schema.createIndex('record_tokens_record_idx').on('record_tokens').columns(['company_id', 'record_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('record_tokens').ifExists().execute();
}
