import type { Kysely } from 'kysely';

/**
 * A webhook's secret rotates with an overlap: the previous secret (sealed as the current one is)
 * still signs deliveries, beside the new one, until `previous_secret_expires_at`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhooks').addColumn('previous_secret', 'text').execute();
  await db.schema.alterTable('webhooks').addColumn('previous_secret_expires_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhooks').dropColumn('previous_secret_expires_at').execute();
  await db.schema.alterTable('webhooks').dropColumn('previous_secret').execute();
}
