import type { Kysely } from 'kysely';

/**
 * A company's profile, as the hosted form shows it to the people a record token is sent to:
 * `display_name` ("Acme Equipment Finance") and `support_email`. Both NULL until an operator
 * sets them; they join the company's settings row (migration 0016), on both databases alike.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('company_settings').addColumn('display_name', 'text').execute();
  await db.schema.alterTable('company_settings').addColumn('support_email', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('company_settings').dropColumn('support_email').execute();
  await db.schema.alterTable('company_settings').dropColumn('display_name').execute();
}
