import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { PG_URL } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, ingestOk } from './event-fixtures.js';
import { changes, followToEnd } from './feed-fixtures.js';

const COMPANY = 'xid-order';

// On PostgreSQL a feed position is (transaction id, sequence). Transaction ids are numbers: the
// feed must order them as numbers even where their decimal text does not (999 before 1000).
describe('events change feed on PostgreSQL: transaction ids across a power of ten', { skip: PG_URL ? false : 'WRS_TEST_PG_URL is not set' }, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('postgres');
    for (const id of ['x1', 'x2', 'x3', 'x4']) await ingestOk(t, COMPANY, [anEvent({ id })]);
    // Each ingest was its own transaction; give them ids on both sides of 1000, in the same
    // order (every real id is far older than any open transaction, so all stay visible).
    const xids = { x1: '998', x2: '999', x3: '1000', x4: '1001' };
    for (const [id, xid] of Object.entries(xids)) {
      await sql`update events set feed_xid = ${xid}::xid8 where company_id = ${COMPANY} and id = ${id}`.execute(t.ctx.database.db);
    }
  });
  after(() => t.close());

  it('answers one page in the numeric order of the positions', async () => {
    assert.deepEqual(
      (await changes(t, COMPANY, { limit: 1000 })).results.map((event) => event.id),
      ['x1', 'x2', 'x3', 'x4'],
    );
  });

  it('hands every event once, in order, to a client following one event at a time', async () => {
    assert.deepEqual((await followToEnd(t, COMPANY, undefined, { limit: 1 })).ids, ['x1', 'x2', 'x3', 'x4']);
    const fromSecond = await changes(t, COMPANY, { limit: 1 });
    assert.deepEqual((await followToEnd(t, COMPANY, fromSecond.next_cursor, { limit: 2 })).ids, ['x2', 'x3', 'x4']);
  });
});
