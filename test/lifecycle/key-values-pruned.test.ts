// The `__contains` dictionary (event_key_values) after erasure and retention: a value only
// removed events carried leaves it, batch by batch; a value a kept event carries stays.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../src/lib/clock.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, ingestOk } from '../events/event-fixtures.js';
import { expectStatus } from '../records/fixtures.js';
import { daily, setRetention } from '../retention/retention-fixtures.js';
import { untilDone } from './lifecycle-fixtures.js';

const ADA = 'ada-5d21@example.com';
const BOB = 'bob-77a0@example.com';

describeEachDatabase('the __contains dictionary after erasure and retention', (kind) => {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind, {
      clock,
      env: { WRS_LIFECYCLE_BATCH_ROWS: '4', WRS_RETENTION_BATCH_SIZE: '3', WRS_RETENTION_BATCH_PAUSE_MS: '0' },
    });
  });
  after(() => t.close());

  /** The company's dictionary, read from the table itself: `field=value` sorted. */
  const storedValues = async (company: string) =>
    (await t.ctx.database.db.selectFrom('event_key_values').select(['field', 'value']).where('company_id', '=', company).execute())
      .map((row) => `${row.field}=${row.value}`)
      .sort();
  const containsIds = async (company: string, query: string) =>
    (expectStatus(await t.as(company, { method: 'GET', url: `/v1/events?limit=100&${query}` }), 200).results as { id: string }[])
      .map((event) => event.id)
      .sort();

  it("erasure removes the values only the person's events carried; shared ones stay", async () => {
    const adas = Array.from({ length: 10 }, (_, i) =>
      anEvent({
        id: `kv-ada-${i}`,
        user_id: ADA,
        // Two of the person's own values, one only in the first event (gone with the first batch).
        flow_key: `flow-of-${ADA}`,
        step_key: i === 0 ? `first-step-of-${ADA}` : 'shared-step',
        connection_key: 'shared-connection',
        version_key: `v-${ADA}`,
      }),
    );
    const bobs = Array.from({ length: 3 }, (_, i) =>
      anEvent({ id: `kv-bob-${i}`, user_id: BOB, flow_key: 'bob-flow', step_key: 'shared-step', connection_key: 'shared-connection', version_key: null }),
    );
    await ingestOk(t, 'kv-acme', [...adas, ...bobs]);
    // Another company's identical values are its own.
    await ingestOk(t, 'kv-globex', [anEvent({ id: 'kv-g-1', user_id: ADA, flow_key: `flow-of-${ADA}` })]);
    const before = await storedValues('kv-acme');
    assert.ok(before.includes(`flow_key=flow-of-${ADA}`) && before.includes(`version_key=v-${ADA}`), before.join(', '));
    assert.equal((await containsIds('kv-acme', 'flow_key__contains=ada-5d21')).length, 10);

    const job = expectStatus(await t.admin({ method: 'POST', url: '/admin/v1/companies/kv-acme/erasures', payload: { user_id: ADA } }), 202);
    const done = await untilDone(t, `/admin/v1/companies/kv-acme/erasures/${job.id}`);
    assert.equal(done.removed.events, 10);

    const stored = await storedValues('kv-acme');
    assert.deepEqual(stored, ['connection_key=shared-connection', 'flow_key=bob-flow', 'step_key=shared-step']);
    // user_id and user_key are never in the dictionary (it holds the four keys that take __contains).
    assert.ok(!stored.some((entry) => entry.includes('ada-5d21')), stored.join(', '));
    // Discovery through __contains finds nothing of the person, and still finds what stays.
    for (const query of ['flow_key__contains=ada-5d21', 'step_key__contains=ada-5d21', 'version_key__contains=ada-5d21']) {
      assert.deepEqual(await containsIds('kv-acme', query), [], query);
    }
    assert.deepEqual(await containsIds('kv-acme', 'step_key__contains=shared'), ['kv-bob-0', 'kv-bob-1', 'kv-bob-2']);
    assert.ok((await storedValues('kv-globex')).includes(`flow_key=flow-of-${ADA}`), "another company's values stay");

    // A value erased and then ingested again is found again.
    await ingestOk(t, 'kv-acme', [anEvent({ id: 'kv-later', user_id: 'someone-else', flow_key: `flow-of-${ADA}` })]);
    assert.deepEqual(await containsIds('kv-acme', 'flow_key__contains=ada-5d21'), ['kv-later']);
  });

  it('retention removes the values no kept event carries, batch by batch', async () => {
    const old = daily('kv-old', 7, '2026-01-07T00:00:00.000Z').map((event, i) => ({
      ...event,
      flow_key: i < 5 ? 'retired-flow' : 'ongoing-flow',
      step_key: `old-step-${i}`,
    }));
    const recent = daily('kv-new', 2, '2026-02-25T00:00:00.000Z').map((event) => ({ ...event, flow_key: 'ongoing-flow', step_key: 'new-step' }));
    await ingestOk(t, 'kv-ret', [...old, ...recent]);
    await setRetention(t, 'kv-ret', 30);
    assert.equal((await t.ctx.retention.sweep()).removed, 7);

    assert.deepEqual(await storedValues('kv-ret'), ['flow_key=ongoing-flow', 'step_key=new-step']);
    assert.deepEqual(await containsIds('kv-ret', 'flow_key__contains=retired'), []);
    assert.deepEqual(await containsIds('kv-ret', 'step_key__contains=old-step'), []);
    assert.deepEqual(await containsIds('kv-ret', 'flow_key__contains=ongoing'), ['kv-new-1', 'kv-new-2']);
  });
});
