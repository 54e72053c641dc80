import type { Kysely } from 'kysely';

/** The start of the receiver's answer body to a delivery's last attempt (at most 64 KiB), for its log. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').addColumn('last_response_body', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').dropColumn('last_response_body').execute();
}
