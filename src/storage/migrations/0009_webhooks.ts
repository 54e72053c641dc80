import { sql, type Kysely } from 'kysely';
import { dialectOf } from './frozen/dialect.js';

/** Outgoing webhooks: the webhooks, their subscriptions, and the outbox of deliveries. */
export async function up(db: Kysely<any>): Promise<void> {
  // Binary collation on PostgreSQL, so keys and timestamps compare and sort as on SQLite.
  const key = dialectOf(db) === 'postgres' ? sql`text collate "C"` : sql`text`;

  await db.schema
    .createTable('webhooks')
    .addColumn('company_id', key, (col) => col.notNull())
    .addColumn('id', key, (col) => col.notNull())
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('events', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('enabled', 'integer', (col) => col.notNull())
    .addColumn('secret', 'text', (col) => col.notNull())
    .addColumn('created_at', key, (col) => col.notNull())
    .addColumn('updated_at', key, (col) => col.notNull())
    .addPrimaryKeyConstraint('webhooks_pk', ['company_id', 'id'])
    .execute();

  await db.schema
    .createTable('webhook_subscriptions')
    .addColumn('company_id', key, (col) => col.notNull())
    .addColumn('event_type', key, (col) => col.notNull())
    .addColumn('webhook_id', key, (col) => col.notNull())
    .addPrimaryKeyConstraint('webhook_subscriptions_pk', ['company_id', 'event_type', 'webhook_id'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('company_id', key, (col) => col.notNull())
    .addColumn('id', key, (col) => col.notNull())
    .addColumn('webhook_id', key, (col) => col.notNull())
    .addColumn('event_type', key, (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('status', key, (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull())
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', key, (col) => col.notNull())
    .addColumn('lease_until', key, (col) => col.notNull())
    .addColumn('lease_owner', key)
    .addColumn('created_at', key, (col) => col.notNull())
    .addColumn('delivered_at', key)
    .addPrimaryKeyConstraint('webhook_deliveries_pk', ['company_id', 'id'])
    .execute();
  // A webhook's history, newest first (delivery ids are time-ordered).
  await db.schema.createIndex('webhook_deliveries_webhook_idx').on('webhook_deliveries').columns(['company_id', 'webhook_id', 'id']).execute();
  // No index by status: the operator's view of failed deliveries walks the company's deliveries
  // newest first (the key), and every index more is paid by every write that has a subscriber.
  // What the workers claim: the pending deliveries by due time, whatever the company.
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['next_attempt_at'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').ifExists().execute();
  await db.schema.dropTable('webhook_subscriptions').ifExists().execute();
  await db.schema.dropTable('webhooks').ifExists().execute();
}
