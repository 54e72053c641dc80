import type { Kysely } from 'kysely';

/**
 * What a minted record token was narrowed to (docs/record-tokens.md): `visible_fields`, JSON
 * text of the field UIDs it sees (NULL: every field its type's form shows); `status_editable`,
 * 0 when the mint forbade setting the status (NULL: as the type's form says); `label`, the
 * minter's note shown in the token list. Forms of record types live in their definitions.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('record_tokens').addColumn('visible_fields', 'text').execute();
  await db.schema.alterTable('record_tokens').addColumn('status_editable', 'integer').execute();
  await db.schema.alterTable('record_tokens').addColumn('label', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('record_tokens').dropColumn('label').execute();
  await db.schema.alterTable('record_tokens').dropColumn('status_editable').execute();
  await db.schema.alterTable('record_tokens').dropColumn('visible_fields').execute();
}
