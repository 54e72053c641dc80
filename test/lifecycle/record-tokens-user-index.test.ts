// Migration 0018: an erasure finds a person's record tokens through (company_id, user_id), not
// by reading every token of the company.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describeEachDatabase('record tokens by user (migration 0018)', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
  });
  after(() => t.close());

  it("the erasure's lookup of a user's tokens uses record_tokens_user_idx", async () => {
    const db = t.ctx.database.db;
    const lookup = sql`select key from record_tokens where company_id = ${'acme'} and user_id = ${'ada'} limit 1000`;
    const plan =
      kind === 'sqlite'
        ? (await sql<{ detail: string }>`explain query plan ${lookup}`.execute(db)).rows.map((row) => row.detail).join('\n')
        : await db.transaction().execute(async (trx) => {
            // The table is empty here: without this the planner rightly prefers a scan of it.
            await sql`set local enable_seqscan = off`.execute(trx);
            const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${lookup}`.execute(trx);
            return rows.map((row) => row['QUERY PLAN']).join('\n');
          });
    assert.match(plan, /record_tokens_user_idx/, plan);
  });
});
