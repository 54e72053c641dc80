import type { Kysely } from 'kysely';

/**
 * Records listed by `order_by=updated_at` (or `-updated_at`) walk `(updated_at, id)` from a
 * cursor record: the index on `(company_id, updated_at)` gains `id`, so a page is one range of
 * the index in either direction, ties included, as `(company_id, created_at, id)` serves the
 * default order.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('records_updated_idx').execute();
  await db.schema.createIndex('records_updated_idx').on('records').columns(['company_id', 'updated_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('records_updated_idx').execute();
  await db.schema.createIndex('records_updated_idx').on('records').columns(['company_id', 'updated_at']).execute();
}
