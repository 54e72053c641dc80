import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { AppContext } from '../../src/app-context.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createReplicaContext, createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType, expectStatus } from '../records/fixtures.js';
import { eventually, FAST_WEBHOOKS, startReceiver, type Receiver } from './receiver.js';

describeEachDatabase('webhooks: failing receivers', (kind) => {
  let t: TestApp;
  let receiver: Receiver;
  const hooks = new Map<string, { id: string; secret: string }>();

  const deliveriesOf = async (path: string) =>
    expectStatus(await t.as('acme', { method: 'GET', url: `/v1/webhooks/${hooks.get(path)!.id}/deliveries` }), 200).results as Array<Record<string, any>>;

  before(async () => {
    receiver = await startReceiver({ slowMs: 2500 });
    // 16 attempts at once, at most 4 per receiver: stalled receivers cannot take the others' share.
    t = await createTestApp(kind, { env: { ...FAST_WEBHOOKS, WRS_WEBHOOK_CONCURRENCY: '16', WRS_WEBHOOK_TIMEOUT_MS: '1000' } });
    t.ctx.webhookDelivery.start();
    await defineType(t, 'acme', 'loan');
    for (const path of ['/hang', '/slow', '/fail', '/reset', '/redirect', '/gone', '/ok']) {
      const events = path === '/ok' ? ['record.created'] : ['*'];
      const created = await t.as('acme', { method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.base}${path}`, events } });
      hooks.set(path, expectStatus(created, 201));
    }
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  it('ends each failing attempt (hang, slow, 500, reset, redirect) and retries it up to the limit, then marks it failed', async () => {
    await createRecord(t, 'acme', 'loan');
    const expected: Record<string, RegExp> = {
      '/hang': /no answer within 1000 ms/,
      '/slow': /no answer within 1000 ms/,
      '/fail': /answered 500/,
      '/reset': /request failed: ECONNRESET|socket hang up/,
      '/redirect': /answered 307 \(redirects are not followed\)/,
    };
    for (const [path, error] of Object.entries(expected)) {
      const [delivery] = await eventually(
        () => deliveriesOf(path),
        (list) => list[0]?.status === 'failed',
        15_000,
      );
      assert.equal(delivery!.attempts, 3, path);
      assert.match(delivery!.last_error, error, path);
      assert.equal(delivery!.delivered_at, null);
      assert.equal(delivery!.next_attempt_at, null);
      assert.equal(receiver.on(path).filter((entry) => entry.headers['webhook-id'] === delivery!.id).length, 3, `${path}: three attempts arrived`);
      assert.equal(new Set(receiver.on(path).map((entry) => entry.headers['webhook-id'])).size, 1, `${path}: one webhook-id on every attempt`);
    }
    assert.equal(receiver.on('/redirected').length, 0, 'the redirect was not followed');
    const [redirected] = await deliveriesOf('/redirect');
    assert.equal(redirected!.last_status_code, 307);
  });

  it('keeps delivering to healthy receivers while others hang', async () => {
    for (let i = 0; i < 6; i++) await createRecord(t, 'acme', 'loan');
    const start = Date.now();
    const record = await createRecord(t, 'acme', 'loan');
    const [arrived] = await eventually(
      async () => receiver.on('/ok').filter((entry) => JSON.parse(entry.body).data.id === record.id),
      (found) => found.length === 1,
    );
    // Waiting behind a stalled attempt would take its whole timeout (1000 ms).
    assert.ok(arrived!.at - start < 600, `a healthy receiver waited ${arrived!.at - start} ms behind stalled ones`);
  });

  it('fails the attempts, without sending, when the signing secret cannot be opened', async () => {
    const created = await t.as('acme', { method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.base}/sealed`, events: ['record.created'] } });
    const hook = expectStatus(created, 201);
    await t.ctx.database.db.updateTable('webhooks').set({ secret: 'v1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }).where('id', '=', hook.id).execute();
    await createRecord(t, 'acme', 'loan');
    const [delivery] = await eventually(
      async () => expectStatus(await t.as('acme', { method: 'GET', url: `/v1/webhooks/${hook.id}/deliveries` }), 200).results as Array<Record<string, any>>,
      (list) => list[0]?.status === 'failed',
    );
    assert.match(delivery!.last_error, /signing secret cannot be opened/);
    assert.equal(receiver.on('/sealed').length, 0);
    expectStatus(await t.as('acme', { method: 'DELETE', url: `/v1/webhooks/${hook.id}` }), 204);
  });

  it('disables the webhook on 410 Gone and stops retrying', async () => {
    const [gone] = await eventually(
      () => deliveriesOf('/gone'),
      (list) => list.length > 0 && list.every((d) => d.status === 'failed'),
    );
    assert.equal(gone!.last_status_code, 410);
    const webhook = expectStatus(await t.as('acme', { method: 'GET', url: `/v1/webhooks/${hooks.get('/gone')!.id}` }), 200);
    assert.equal(webhook.enabled, false);
    const attempts = receiver.on('/gone').length;
    await createRecord(t, 'acme', 'loan');
    await receiver.waitFor('/ok', receiver.on('/ok').length + 1);
    assert.equal(receiver.on('/gone').length, attempts, 'a disabled webhook gets nothing new');
    const operator = await t.admin({ method: 'GET', url: '/admin/v1/companies/acme/webhook-deliveries?status=failed' });
    const failed = expectStatus(operator, 200);
    assert.ok(failed.results.some((delivery: { id: string }) => delivery.id === gone!.id));
    assert.ok(failed.results.every((delivery: { status: string }) => delivery.status === 'failed'));
  });
});

describeEachDatabase('webhooks: addresses checked again at delivery', (kind) => {
  let t: TestApp;
  let strictWorker: AppContext;
  let receiver: Receiver;

  before(async () => {
    receiver = await startReceiver();
    // Set while private URLs were allowed; delivered by a process that does not allow them.
    t = await createTestApp(kind, { env: FAST_WEBHOOKS });
    const { WRS_WEBHOOK_ALLOW_PRIVATE_URLS: _allowed, ...strict } = FAST_WEBHOOKS;
    strictWorker = await createReplicaContext(t.database, strict);
    strictWorker.webhookDelivery.start();
  });
  after(async () => {
    await strictWorker.close();
    await t.close();
    await receiver.close();
  });

  it('refuses a loopback receiver at connect time, whether named, literal or IPv4-compatible IPv6', async () => {
    const port = new URL(receiver.base).port;
    const ids: string[] = [];
    for (const url of [`https://localhost:${port}/named`, `https://127.0.0.1:${port}/literal`, `https://[::127.0.0.1]:${port}/compatible`]) {
      const created = expectStatus(await t.as('acme', { method: 'POST', url: '/v1/webhooks', payload: { url, events: ['*'] } }), 201);
      ids.push(created.id);
    }
    await defineType(t, 'acme', 'loan');
    await createRecord(t, 'acme', 'loan');
    for (const id of ids) {
      const [delivery] = await eventually(
        async () => expectStatus(await t.as('acme', { method: 'GET', url: `/v1/webhooks/${id}/deliveries` }), 200).results as Array<Record<string, any>>,
        (list) => list[0]?.status === 'failed',
        15_000,
      );
      assert.match(delivery!.last_error, /non-public|not a public address/);
      assert.equal(delivery!.last_status_code, null);
      assert.equal(delivery!.last_response_body, null);
    }
    const [named] = expectStatus(await t.as('acme', { method: 'GET', url: `/v1/webhooks/${ids[0]}/deliveries` }), 200).results;
    // The name's internal address is not told to the company.
    assert.equal(named.last_error, 'localhost resolves to a non-public address: refused');
    assert.equal(receiver.received.length, 0, 'no request reached the loopback receiver');
  });
});
