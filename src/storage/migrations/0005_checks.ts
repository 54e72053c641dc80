import { sql, type Kysely } from 'kysely';
import { dialectOf } from './frozen/dialect.js';

/** Checks of the embedded provider, and companies' encrypted provider credentials. */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  // Binary collation on PostgreSQL, so keys and timestamps compare and sort as on SQLite.
  const key = postgres ? sql`text collate "C"` : sql`text`;

  await db.schema
    .createTable('checks')
    .addColumn('company_id', key, (col) => col.notNull())
    .addColumn('id', key, (col) => col.notNull())
    .addColumn('date_created', key, (col) => col.notNull())
    .addColumn('send_date', key, (col) => col.notNull())
    .addColumn('scheduled', 'integer', (col) => col.notNull())
    .addColumn('mail_type', key, (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('checks_pk', ['company_id', 'id'])
    .execute();
  // Keyset paging walks (sort field, id) in either direction.
  await db.schema.createIndex('checks_date_created_idx').on('checks').columns(['company_id', 'date_created', 'id']).execute();
  await db.schema.createIndex('checks_send_date_idx').on('checks').columns(['company_id', 'send_date', 'id']).execute();

  await db.schema
    .createTable('check_provider_credentials')
    .addColumn('company_id', key, (col) => col.notNull())
    .addColumn('provider', key, (col) => col.notNull())
    .addColumn('encrypted_key', 'text', (col) => col.notNull())
    .addColumn('key_last4', 'text', (col) => col.notNull())
    .addColumn('created_at', key, (col) => col.notNull())
    .addColumn('updated_at', key, (col) => col.notNull())
    .addPrimaryKeyConstraint('check_provider_credentials_pk', ['company_id', 'provider'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('check_provider_credentials').ifExists().execute();
  await db.schema.dropTable('checks').ifExists().execute();
}
