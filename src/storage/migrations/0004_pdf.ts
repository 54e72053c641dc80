import { sql, type Kysely } from 'kysely';
import { dialectOf } from './frozen/dialect.js';

/** PDF templates, stored files (rendered PDFs) and the database blob store. */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  // Binary collation on PostgreSQL, so keys compare and sort the same as on SQLite.
  const key = postgres ? sql`text collate "C"` : sql`text`;
  const bytes = postgres ? 'bytea' : 'blob';

  await db.schema
    .createTable('pdf_templates')
    .addColumn('company_id', key, (col) => col.notNull())
    .addColumn('id', key, (col) => col.notNull())
    .addColumn('template_json', 'text', (col) => col.notNull())
    .addColumn('size_bytes', 'integer', (col) => col.notNull())
    .addColumn('pages', 'integer', (col) => col.notNull())
    .addColumn('created_at', key, (col) => col.notNull())
    .addColumn('updated_at', key, (col) => col.notNull())
    .addPrimaryKeyConstraint('pdf_templates_pk', ['company_id', 'id'])
    .execute();

  await db.schema
    .createTable('record_files')
    .addColumn('company_id', key, (col) => col.notNull())
    .addColumn('id', key, (col) => col.notNull())
    .addColumn('record_id', key, (col) => col.notNull())
    .addColumn('filename', 'text', (col) => col.notNull())
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('size_bytes', 'integer', (col) => col.notNull())
    .addColumn('pages', 'integer', (col) => col.notNull())
    .addColumn('sha256', 'text', (col) => col.notNull())
    .addColumn('template_id', key, (col) => col.notNull())
    .addColumn('blob_key', key, (col) => col.notNull())
    .addColumn('created_at', key, (col) => col.notNull())
    .addPrimaryKeyConstraint('record_files_pk', ['company_id', 'id'])
    .execute();
  await db.schema.createIndex('record_files_record_idx').on('record_files').columns(['company_id', 'record_id', 'created_at']).execute();

  await db.schema
    .createTable('blobs')
    .addColumn('company_id', key, (col) => col.notNull())
    .addColumn('key', key, (col) => col.notNull())
    .addColumn('data', bytes, (col) => col.notNull())
    .addColumn('size_bytes', 'integer', (col) => col.notNull())
    .addColumn('created_at', key, (col) => col.notNull())
    .addPrimaryKeyConstraint('blobs_pk', ['company_id', 'key'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('blobs').ifExists().execute();
  await db.schema.dropTable('record_files').ifExists().execute();
  await db.schema.dropTable('pdf_templates').ifExists().execute();
}
