// Webhook delivery figures: attempts by outcome and the lag of deliveries made, with a local receiver.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, ingest } from '../events/event-fixtures.js';
import { expectStatus } from '../records/fixtures.js';
import { eventually, FAST_WEBHOOKS, startReceiver, type Receiver } from '../webhooks/receiver.js';
import { scrape } from './exposition.js';

describeEachDatabase('webhook delivery metrics', (kind) => {
  let t: TestApp;
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
    // Two attempts at most: a failing receiver is retried once, then given up.
    t = await createTestApp(kind, { env: { ...FAST_WEBHOOKS, WRS_WEBHOOK_MAX_ATTEMPTS: '2' } });
    t.ctx.webhookDelivery.start();
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  const subscribe = async (company: string, path: string) =>
    expectStatus(await t.as(company, { method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.base}${path}`, events: ['events.ingested'] } }), 201);

  it('counts delivered, retried and failed attempts, and the lag of each delivery made', async () => {
    await subscribe('acme', '/ok');
    await subscribe('globex', '/fail');
    const started = Date.now();
    for (const company of ['acme', 'acme', 'globex']) assert.equal((await ingest(t, company, [anEvent()])).statusCode, 200);
    await receiver.waitFor('/ok', 2);
    await receiver.waitFor('/fail', 2);
    const elapsedSeconds = (Date.now() - started) / 1000;

    // A receiver has the request before the worker has its answer: the figures follow a moment later.
    const exposition = await eventually(
      () => scrape(t),
      (figures) =>
        figures.value('wrs_webhook_delivery_attempts_total', { outcome: 'failed' }) === 1 &&
        figures.value('wrs_webhook_delivery_attempts_total', { outcome: 'delivered' }) === 2,
    );
    assert.equal(exposition.value('wrs_webhook_delivery_attempts_total', { outcome: 'delivered' }), 2);
    assert.equal(exposition.value('wrs_webhook_delivery_attempts_total', { outcome: 'retrying' }), 1);
    assert.equal(exposition.value('wrs_webhook_delivery_lag_seconds_count'), 2, 'a lag for each delivery made, none for the failed one');
    const lag = exposition.value('wrs_webhook_delivery_lag_seconds_sum')!;
    assert.ok(lag > 0 && lag <= 2 * elapsedSeconds + 1, `lag ${lag} s`);
    assert.equal(exposition.value('wrs_webhook_delivery_lag_seconds_bucket', { le: '+Inf' }), 2);
  });
});
