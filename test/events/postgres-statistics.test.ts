import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { PG_URL } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { compileEventPage, compileEventPageCount } from '../../src/storage/repositories/event-query-compiler.js';
import { FEED_START } from '../../src/domain/events/feed-position.js';
import { postgresFeedCount, postgresFeedQuery } from '../../src/storage/repositories/feed-queries.js';
import { anEvent, ingestOk } from './event-fixtures.js';

/** The rows PostgreSQL's statistics say a table holds (as of its last analysis). */
async function analysedRows(t: TestApp, table: 'events' | 'event_key_values'): Promise<number> {
  const { rows } = await sql<{ row_count: string }>`select reltuples::bigint as row_count from pg_class where oid = ${table}::regclass`.execute(
    t.ctx.database.db,
  );
  return Number(rows[0]!.row_count);
}

// PostgreSQL's planner reads the `__contains` dictionary by what its statistics say. Here (as on
// many servers) autovacuum may not have run: the service refreshes them after ingests itself.
describe('the __contains dictionary statistics on PostgreSQL', { skip: PG_URL ? false : 'WRS_TEST_PG_URL is not set' }, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('postgres');
  });
  after(() => t.close());

  const analysedValues = () => analysedRows(t, 'event_key_values');
  const storedValues = async () => {
    const { rows } = await sql<{ value_count: string }>`select count(*) as value_count from event_key_values`.execute(t.ctx.database.db);
    return Number(rows[0]!.value_count);
  };
  const events = (company: string, count: number, flows: number) =>
    Array.from({ length: count }, (_, i) => anEvent({ id: `${company}-${i}`, flow_key: `${company}-flow-${i % flows}`, step_key: null }));

  it('follows a large ingest, then many small ones that each stay under its threshold', async () => {
    await ingestOk(t, 'large', events('large', 10_000, 40));
    const afterLarge = await analysedValues();
    assert.equal(afterLarge, await storedValues(), 'a large ingest analyses the dictionary');

    // Each adds 30 values: under the 50 a refresh waits for, so the first leaves the statistics as they were.
    await ingestOk(t, 'small-0', events('small-0', 60, 30));
    assert.equal(await analysedValues(), afterLarge);
    for (let i = 1; i < 4; i++) await ingestOk(t, `small-${i}`, events(`small-${i}`, 60, 30));
    assert.equal(await analysedValues(), await storedValues(), 'the small ingests together refresh it');
    assert.ok((await analysedValues()) > afterLarge);
  });

  it('finds a substring of a small company through the refreshed dictionary', async () => {
    const response = await t.as('small-3', { method: 'GET', url: '/v1/events?flow_key__contains=flow-29&limit=100' });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual((response.json() as { results: { id: string }[] }).results.map((event) => event.id).sort(), ['small-3-29', 'small-3-59']);
  });
});

// PostgreSQL plans by its statistics, which autovacuum may never refresh (it is off on some
// servers, this one's included): the service analyses the events itself as ingests add to them.
describe('the events statistics and page counts on PostgreSQL', { skip: PG_URL ? false : 'WRS_TEST_PG_URL is not set' }, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('postgres');
  });
  after(() => t.close());

  const analysedEvents = () => analysedRows(t, 'events');
  const events = (company: string, count: number) => Array.from({ length: count }, (_, i) => anEvent({ id: `${company}-${i}`, step_key: null }));

  it('follows a large ingest, then many small ones that each stay under its threshold', async () => {
    await ingestOk(t, 'large', events('large', 12_000));
    assert.equal(await analysedEvents(), 12_000, 'a large ingest analyses the events');

    // 10,000 events written since the last analysis refresh it (a tenth of 12,000 is less).
    for (let i = 0; i < 24; i++) await ingestOk(t, `small-${i}`, events(`small-${i}`, 400));
    assert.equal(await analysedEvents(), 12_000, '9,600 events since the analysis leave it as it was');
    await ingestOk(t, 'small-24', events('small-24', 400));
    assert.equal(await analysedEvents(), 22_000, 'the small ingests together refresh it');
  });

  // Counted in no order, the page of a company holding much of a large table is counted by a
  // sequential scan stopping at the limit, which starts where the last sequential scan of the
  // table stopped (synchronized scans): where the company's rows lie together, past them, it
  // reads the rest of the table first. A table this small is neither scanned in step nor worth
  // an index to the planner, so what is checked is that the count is bounded in the page's order,
  // as the page itself is read, and still counts what the page holds.
  const orderClause = (text: string) => /order by .*? limit/i.exec(text.replace(/\s+/g, ' '))?.[0];

  it('counts a large page in the order the page is read in', async () => {
    const { db } = t.ctx.database;
    const query = {
      filters: [{ field: 'flow_key' as const, operator: 'eq' as const, value: 'f' }],
      order: { field: 'user_id' as const, direction: 'desc' as const },
      limit: 10_000,
      offset: 0,
    };
    const pageOrder = orderClause(compileEventPage(db, 'postgres', 'large', query, new Map()).compile().sql);
    assert.ok(pageOrder, 'the page is ordered');
    assert.equal(orderClause(compileEventPageCount(db, 'postgres', 'large', query, new Map()).compile().sql), pageOrder);

    const response = await t.as('large', { method: 'GET', url: '/v1/events?limit=10000' });
    assert.equal(response.statusCode, 200);
    assert.equal((response.json() as { count: number }).count, 10_000);
    const beyond = await t.as('large', { method: 'GET', url: '/v1/events?limit=10000&page=2' });
    assert.equal((beyond.json() as { count: number; results: unknown[] }).count, 2_000);
  });

  it('counts a change-feed page in the feed order', async () => {
    const { db } = t.ctx.database;
    const page = postgresFeedQuery('large', FEED_START, 10_000, null, '1').compile(db).sql;
    const count = postgresFeedCount('large', FEED_START, 10_000, null, '1').compile(db).sql;
    assert.ok(orderClause(page));
    assert.equal(orderClause(count), orderClause(page));

    const response = await t.as('large', { method: 'GET', url: '/v1/events/changes?limit=10000' });
    assert.equal(response.statusCode, 200);
    assert.equal((response.json() as { count: number }).count, 10_000);
  });
});
