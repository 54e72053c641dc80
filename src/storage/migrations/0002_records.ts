import { sql, type Kysely } from 'kysely';
import { dialectOf } from './frozen/dialect.js';

/** Custom record types, workboard records, and the stored views of imported records. */
export async function up(db: Kysely<any>): Promise<void> {
  // Binary collation on PostgreSQL, so keys compare and sort the same as on SQLite.
  const key = dialectOf(db) === 'postgres' ? sql`text collate "C"` : sql`text`;

  await db.schema
    .createTable('record_types')
    .addColumn('company_id', key, (col) => col.notNull())
    .addColumn('id', key, (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('definition', 'text', (col) => col.notNull())
    .addColumn('version', 'integer', (col) => col.notNull())
    .addColumn('created_at', key, (col) => col.notNull())
    .addColumn('updated_at', key, (col) => col.notNull())
    .addColumn('deleted_at', key)
    .addPrimaryKeyConstraint('record_types_pk', ['company_id', 'id'])
    .execute();

  await db.schema
    .createTable('records')
    .addColumn('company_id', key, (col) => col.notNull())
    .addColumn('id', key, (col) => col.notNull())
    .addColumn('record_type', key, (col) => col.notNull())
    .addColumn('type_id', key)
    .addColumn('uid', 'text')
    .addColumn('status', key, (col) => col.notNull())
    .addColumn('parent_record', 'text')
    .addColumn('child_records', 'text', (col) => col.notNull())
    .addColumn('instance', 'text')
    .addColumn('fields', 'text')
    .addColumn('linked', 'text')
    .addColumn('views', 'text', (col) => col.notNull())
    .addColumn('created_at', key, (col) => col.notNull())
    .addColumn('updated_at', key, (col) => col.notNull())
    .addPrimaryKeyConstraint('records_pk', ['company_id', 'id'])
    .execute();
  // The list order is (created_at, id); each filter has an index that keeps that order.
  await db.schema.createIndex('records_created_idx').on('records').columns(['company_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('records_kind_created_idx').on('records').columns(['company_id', 'record_type', 'created_at', 'id']).execute();
  await db.schema.createIndex('records_type_status_idx').on('records').columns(['company_id', 'type_id', 'status', 'created_at', 'id']).execute();
  await db.schema.createIndex('records_updated_idx').on('records').columns(['company_id', 'updated_at']).execute();

  await db.schema
    .createTable('record_stored_views')
    .addColumn('company_id', key, (col) => col.notNull())
    .addColumn('view_id', key, (col) => col.notNull())
    .addColumn('record_id', key, (col) => col.notNull())
    .addPrimaryKeyConstraint('record_stored_views_pk', ['company_id', 'view_id', 'record_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('record_stored_views').ifExists().execute();
  await db.schema.dropTable('records').ifExists().execute();
  await db.schema.dropTable('record_types').ifExists().execute();
}
