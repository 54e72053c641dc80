// The database pool gauges, on SQLite (the writer and the snapshot readers) and PostgreSQL (pg.Pool).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { scrape } from './exposition.js';

describeEachDatabase('database pool metrics', (kind) => {
  let t: TestApp;
  before(async () => {
    // One PostgreSQL connection, so that a second caller has to wait for it.
    t = await createTestApp(kind, { env: { WRS_DB_POOL_SIZE: '1' } });
  });
  after(() => t.close());

  const figures = async () => {
    const exposition = await scrape(t);
    return {
      inUse: exposition.value('wrs_db_pool_connections_in_use'),
      idle: exposition.value('wrs_db_pool_connections_idle'),
      waiting: exposition.value('wrs_db_pool_waiting'),
      max: exposition.value('wrs_db_pool_max_connections'),
    };
  };

  it('reports nothing in use and nobody waiting when idle', async () => {
    const idle = await figures();
    assert.equal(idle.inUse, 0);
    assert.equal(idle.waiting, 0);
    assert.ok((idle.idle ?? 0) >= 1);
    // SQLite has no bound: it opens a snapshot reader for each large page read at once.
    assert.equal(idle.max, kind === 'postgres' ? 1 : undefined);
  });

  it('reports a connection in use and a caller waiting for it while a write transaction runs', async () => {
    const { db } = t.ctx.database;
    let waitingWrite: Promise<unknown> | undefined;
    const during = await db.transaction().execute(async (trx) => {
      await sql`update data_versions set version = version where company_id = 'nobody'`.execute(trx);
      // Outside the transaction: it needs the connection (PostgreSQL) or the writer (SQLite) the transaction holds.
      waitingWrite = sql`update data_versions set version = version where company_id = 'nobody'`.execute(db);
      await new Promise((resolve) => setTimeout(resolve, 50));
      return figures();
    });
    await waitingWrite;
    assert.equal(during.inUse, 1);
    assert.equal(during.waiting, 1);
    const afterwards = await figures();
    assert.equal(afterwards.inUse, 0);
    assert.equal(afterwards.waiting, 0);
  });

  it('counts a snapshot read (a large page read in chunks) as a connection in use', async () => {
    const snapshot = await t.ctx.database.openSnapshot();
    try {
      assert.equal((await figures()).inUse, 1);
    } finally {
      await snapshot.release();
    }
    assert.equal((await figures()).inUse, 0);
  });
});
