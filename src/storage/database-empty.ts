import type { Database } from './database.js';
import type { DB } from './schema.js';

/** Tables that hold company data; the database is empty when none of them has a row. */
const COMPANY_DATA_TABLES = ['events', 'record_types', 'records', 'checks', 'pdf_templates'] as const satisfies readonly (keyof DB)[];

/** Whether no company has stored anything yet (demo data goes only into such a database). */
export async function isDatabaseEmpty({ db }: Database): Promise<boolean> {
  for (const table of COMPANY_DATA_TABLES) {
    const row = await db.selectFrom(table).select('company_id').limit(1).executeTakeFirst();
    if (row) return false;
  }
  return true;
}
