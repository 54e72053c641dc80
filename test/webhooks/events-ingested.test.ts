import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, ingest, ingestOk } from '../events/event-fixtures.js';
import { changes } from '../events/feed-fixtures.js';
import { expectStatus } from '../records/fixtures.js';
import { FAST_WEBHOOKS, startReceiver, type Receiver } from './receiver.js';

describeEachDatabase('webhooks: events.ingested', (kind) => {
  let t: TestApp;
  let receiver: Receiver;
  let hook: { id: string; secret: string };

  const bodies = (path: string) =>
    receiver.on(path).map((entry) => new Webhook(hook.secret).verify(entry.body, entry.headers) as { type: string; data: { count: number; cursor: string } });

  before(async () => {
    receiver = await startReceiver();
    t = await createTestApp(kind, { env: FAST_WEBHOOKS });
    t.ctx.webhookDelivery.start();
    hook = expectStatus(
      await t.as('acme', { method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.base}/ingested`, events: ['events.ingested'] } }),
      201,
    );
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  it('announces each ingest request once, with its count and the feed cursor that reads its batch', async () => {
    await ingestOk(t, 'acme', [anEvent({ id: 'e-before', type: 'flow.started' })]);
    const batch = [anEvent({ id: 'e-1', type: 'step.completed' }), anEvent({ id: 'e-2', type: 'step.completed' }), anEvent({ id: 'e-3', type: 'flow.ended' })];
    await ingestOk(t, 'acme', batch);

    await receiver.waitFor('/ingested', 2);
    // Two deliveries may arrive in either order: each is told apart by its count.
    const first = bodies('/ingested').find((body) => body.data.count === 1);
    const second = bodies('/ingested').find((body) => body.data.count === 3);
    assert.deepEqual([first!.type, first!.data.count], ['events.ingested', 1]);
    assert.deepEqual([second!.type, second!.data.count], ['events.ingested', 3]);
    const page = await changes(t, 'acme', { after: second!.data.cursor });
    assert.deepEqual(
      page.results.map((event) => event.id),
      ['e-1', 'e-2', 'e-3'],
    );
    const fromFirst = await changes(t, 'acme', { after: first!.data.cursor });
    assert.deepEqual(
      fromFirst.results.map((event) => event.id),
      ['e-before', 'e-1', 'e-2', 'e-3'],
    );
  });

  it("announces nothing for a refused ingest, an empty one, or another company's", async () => {
    const before = receiver.on('/ingested').length;
    const refused = await ingest(t, 'acme', [anEvent({ id: 'e-ok' }), { id: 'e-bad' }]);
    assert.equal(refused.statusCode, 400, refused.body);
    expectStatus(await ingest(t, 'acme', []), 200);
    await ingestOk(t, 'globex', [anEvent({ id: 'g-1' })]);
    await ingestOk(t, 'acme', [anEvent({ id: 'e-last' })]);
    const arrived = await receiver.waitFor('/ingested', before + 1).then(() => bodies('/ingested').slice(before));
    await sleep(200);
    assert.equal(bodies('/ingested').length, before + 1, 'only the last acme ingest is announced');
    assert.equal(arrived[0]!.data.count, 1);
    const page = await changes(t, 'acme', { after: arrived[0]!.data.cursor });
    assert.deepEqual(
      page.results.map((event) => event.id),
      ['e-last'],
    );
  });
});
