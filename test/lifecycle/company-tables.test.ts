import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { COMPANY_TABLES, KEPT_COMPANY_TABLES } from '../../src/storage/company-tables.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The one list of company tables that an offboarding empties covers the migrated schema: a
 * migration that adds a table with `company_id` fails here until the table is listed (or kept,
 * with its reason).
 */
describeEachDatabase('the list of company tables', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
  });
  after(() => t.close());

  it('names every table of the schema that has a company_id column, once', async () => {
    const query =
      kind === 'postgres'
        ? sql<{ name: string }>`select table_name as name from information_schema.columns
            where column_name = 'company_id' and table_schema = current_schema()`
        : sql<{ name: string }>`select m.name as name from sqlite_master m join pragma_table_info(m.name) p
            where m.type = 'table' and p.name = 'company_id'`;
    const inSchema = (await query.execute(t.ctx.database.db)).rows.map((row) => row.name).sort();
    const listed = [...COMPANY_TABLES, ...Object.keys(KEPT_COMPANY_TABLES)];
    assert.equal(new Set(listed).size, listed.length, 'a table is listed twice');
    assert.deepEqual([...listed].sort(), inSchema);
  });
});
