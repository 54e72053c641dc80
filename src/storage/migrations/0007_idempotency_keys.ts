import { sql, type Kysely } from 'kysely';
import { dialectOf } from './frozen/dialect.js';

/**
 * Idempotency keys: one row per company, route scope and key, inserted (ON CONFLICT DO NOTHING)
 * as a running claim before the request runs, then holding its answer for 24 hours.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const key = dialectOf(db) === 'postgres' ? sql`text collate "C"` : sql`text`;
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('company_id', key, (col) => col.notNull())
    .addColumn('scope', key, (col) => col.notNull())
    .addColumn('key', key, (col) => col.notNull())
    .addColumn('claim_token', 'text', (col) => col.notNull())
    .addColumn('request_hash', 'text')
    .addColumn('response_status', 'integer')
    .addColumn('response_headers', 'text')
    .addColumn('response_body', 'text')
    .addColumn('expires_at', key, (col) => col.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['company_id', 'scope', 'key'])
    .execute();
  // The cleanup deletes by expiry across companies.
  await db.schema.createIndex('idempotency_keys_expires_idx').on('idempotency_keys').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').ifExists().execute();
}
