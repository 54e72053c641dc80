import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, filterDataset, ingest, ingestOk, listEvents, listIds, USERS } from './event-fixtures.js';

describeEachDatabase('events: one company never sees another company', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
    // Same ids and keys in both companies, plus keys only the other company has.
    await ingestOk(t, 'alpha', filterDataset());
    await ingestOk(t, 'beta', [
      ...filterDataset().map((event) => ({ ...event, text: 'beta' })),
      anEvent({ id: 'beta-only', flow_key: 'secret-merger', step_key: 'secret-step', connection_key: 'secret-bank', version_key: 'secret-v' }),
    ]);
  });
  after(() => t.close());

  it('lists only the events of the company in the token, even with the same ids', async () => {
    const alpha = (await listEvents(t, 'alpha', 'limit=10000')).json().results;
    const beta = (await listEvents(t, 'beta', 'limit=10000')).json().results;
    assert.equal(alpha.length, 12);
    assert.equal(beta.length, 13);
    assert.ok(alpha.every((event: { company_id: string; text: string | null }) => event.company_id === 'alpha' && event.text !== 'beta'));
    for (const event of beta as { id: string; company_id: string; text: string | null }[]) {
      assert.equal(event.company_id, 'beta');
      assert.equal(event.text, event.id === 'beta-only' ? null : 'beta');
    }
    assert.deepEqual(await listIds(t, 'nobody'), []);
  });

  it('never finds another company through any filter', async () => {
    const queries = [
      'flow_key=secret-merger',
      'flow_key__contains=secret',
      'flow_key__contains=merg',
      'flow_key__gte=secret',
      'step_key__contains=secret',
      'connection_key__contains=bank',
      'version_key__contains=secret',
      'version_key=secret-v',
      'order_by=-flow_key&limit=1&flow_key__contains=s',
    ];
    for (const query of queries) {
      const ids = await listIds(t, 'alpha', query);
      assert.ok(!ids.includes('beta-only'), query);
    }
    assert.deepEqual(await listIds(t, 'alpha', 'flow_key__contains=secret'), []);
    assert.deepEqual(await listIds(t, 'beta', 'flow_key__contains=secret'), ['beta-only']);
    assert.equal((await listIds(t, 'beta', `user_id=${USERS.bob}`)).length, (await listIds(t, 'alpha', `user_id=${USERS.bob}`)).length);
  });

  it('ingests into the company of the path only', async () => {
    const response = await ingest(t, 'alpha', [{ type: 'x', company_id: 'beta' }]);
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().code, 'invalid_body');
    assert.equal((await listEvents(t, 'beta', 'type=x')).json().count, 0);
    assert.equal((await listEvents(t, 'alpha', 'type=x')).json().count, 0);
  });

  it('replacing an id in one company leaves the other company alone', async () => {
    await ingestOk(t, 'alpha', [{ id: 'e01', type: 'replaced' }]);
    assert.deepEqual(await listIds(t, 'alpha', 'type=replaced'), ['e01']);
    assert.deepEqual(await listIds(t, 'beta', 'type=replaced'), []);
    assert.deepEqual(await listIds(t, 'beta', 'type=user_flow_session_started'), ['e01', 'e04']);
  });
});
