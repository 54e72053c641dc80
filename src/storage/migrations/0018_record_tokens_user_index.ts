import type { Kysely } from 'kysely';

/**
 * Record tokens by the user who minted them (the user they act for): an erasure removes a
 * person's tokens a batch at a time by `(company_id, user_id)`, which without this index read
 * every token of the company for each batch (docs/data-lifecycle.md).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('record_tokens_user_idx').on('record_tokens').columns(['company_id', 'user_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('record_tokens_user_idx').ifExists().execute();
}
