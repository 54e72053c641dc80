import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { PG_URL } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, ingestOk } from './event-fixtures.js';

// PostgreSQL's planner reads the `__contains` dictionary by what its statistics say. Here (as on
// many servers) autovacuum may not have run: the service refreshes them after ingests itself.
describe('the __contains dictionary statistics on PostgreSQL', { skip: PG_URL ? false : 'WRS_TEST_PG_URL is not set' }, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('postgres');
  });
  after(() => t.close());

  const analysedValues = async () => {
    const { rows } = await sql<{ value_count: string }>`select reltuples::bigint as value_count from pg_class where oid = 'event_key_values'::regclass`.execute(
      t.ctx.database.db,
    );
    return Number(rows[0]!.value_count);
  };
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
    assert.deepEqual(
      (response.json() as { results: { id: string }[] }).results.map((event) => event.id).sort(),
      ['small-3-29', 'small-3-59'],
    );
  });
});
