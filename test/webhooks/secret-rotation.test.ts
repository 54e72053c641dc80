import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { defineType, expectStatus, LOAN_TYPE, VALID_LOAN } from '../records/fixtures.js';
import { FAST_WEBHOOKS, startReceiver, type Receiver } from './receiver.js';

describeEachDatabase('webhooks: secret rotation with an overlap', (kind) => {
  let t: TestApp;
  let receiver: Receiver;

  const subscribe = async (path: string, company = 'acme') =>
    expectStatus(await t.as(company, { method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.base}${path}`, events: ['record.created'] } }), 201);
  const rotate = (id: string, payload?: object, company = 'acme', headers: Record<string, string> = {}) =>
    t.as(company, { method: 'POST', url: `/v1/webhooks/${id}/secret`, headers, ...(payload ? { payload } : {}) });
  const createLoan = async () => expectStatus(await t.as('acme', { method: 'POST', url: '/v1/records/loan', payload: VALID_LOAN }), 201);
  const verifies = (secret: string, received: { body: string; headers: Record<string, string> }) => {
    try {
      new Webhook(secret).verify(received.body, received.headers);
      return true;
    } catch {
      return false;
    }
  };

  before(async () => {
    receiver = await startReceiver();
    t = await createTestApp(kind, { env: { ...FAST_WEBHOOKS } });
    t.ctx.webhookDelivery.start();
    await defineType(t, 'acme', 'loan', LOAN_TYPE);
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  it('signs with both secrets during the overlap (either verifies alone), then with the new one only', async () => {
    const hook = await subscribe('/overlap');
    const before = Date.now();
    const rotated = expectStatus(await rotate(hook.id, { overlap_seconds: 2 }), 200);
    assert.deepEqual(Object.keys(rotated).sort(), ['previous_secret_expires_at', 'secret']);
    assert.match(rotated.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.notEqual(rotated.secret, hook.secret);
    const expires = Date.parse(rotated.previous_secret_expires_at);
    assert.ok(expires >= before + 2000 && expires <= Date.now() + 2000, rotated.previous_secret_expires_at);
    const shown = expectStatus(await t.as('acme', { method: 'GET', url: `/v1/webhooks/${hook.id}` }), 200);
    assert.equal(shown.secret, undefined, 'GET never shows a secret');

    await createLoan();
    const [during] = await receiver.waitFor('/overlap', 1);
    const signatures = during!.headers['webhook-signature']!.split(' ');
    assert.equal(signatures.length, 2, during!.headers['webhook-signature']);
    for (const signature of signatures) assert.match(signature, /^v1,[A-Za-z0-9+/]+=*$/);
    assert.ok(verifies(rotated.secret, during!), 'the new secret verifies during the overlap');
    assert.ok(verifies(hook.secret, during!), 'the previous secret verifies during the overlap');
    assert.ok(!verifies(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, during!), 'another secret does not');

    await sleep(Math.max(0, expires - Date.now()) + 100);
    await createLoan();
    const [, afterwards] = await receiver.waitFor('/overlap', 2);
    assert.equal(afterwards!.headers['webhook-signature']!.split(' ').length, 1);
    assert.ok(verifies(rotated.secret, afterwards!), 'the new secret verifies after the overlap');
    assert.ok(!verifies(hook.secret, afterwards!), 'the previous secret no longer does');
  });

  it('overlap 0 stops the old secret at once; the default overlap is 24 hours', async () => {
    const hook = await subscribe('/at-once');
    const rotated = expectStatus(await rotate(hook.id, { overlap_seconds: 0 }), 200);
    assert.equal(rotated.previous_secret_expires_at, null);
    await createLoan();
    const [received] = await receiver.waitFor('/at-once', 1);
    assert.equal(received!.headers['webhook-signature']!.split(' ').length, 1);
    assert.ok(verifies(rotated.secret, received!));
    assert.ok(!verifies(hook.secret, received!));

    const before = Date.now();
    const byDefault = expectStatus(await rotate(hook.id), 200);
    const overlap = Date.parse(byDefault.previous_secret_expires_at) - before;
    assert.ok(overlap >= 24 * 3600_000 - 1000 && overlap <= 24 * 3600_000 + 5000, byDefault.previous_secret_expires_at);
    const longest = expectStatus(await rotate(hook.id, { overlap_seconds: 7 * 24 * 3600 }), 200);
    assert.ok(Date.parse(longest.previous_secret_expires_at) - before >= 7 * 24 * 3600_000 - 1000);
    await createLoan();
    const [, second] = await receiver.waitFor('/at-once', 2);
    assert.ok(verifies(longest.secret, second!) && verifies(byDefault.secret, second!), 'the secret current before the rotation still signs');
    assert.ok(!verifies(rotated.secret, second!), 'a rotation during an overlap ends the earlier previous secret');
  });

  it('answers 400 for an overlap out of range and 404 for an unknown webhook or another company’s', async () => {
    const hook = await subscribe('/bad');
    for (const overlap_seconds of [-1, 7 * 24 * 3600 + 1, 1.5]) {
      const answer = await rotate(hook.id, { overlap_seconds });
      assert.equal(answer.statusCode, 400, `${overlap_seconds}: ${answer.body}`);
      assert.match(answer.json().message, /overlap_seconds/);
    }
    for (const payload of [{ overlap_seconds: 'soon' }, { overlap: 5 }])
      assert.equal((await rotate(hook.id, payload)).statusCode, 400, JSON.stringify(payload));
    assert.equal((await rotate('no-such-webhook')).statusCode, 404);
    const other = await subscribe('/other', 'globex');
    const foreign = await rotate(other.id, { overlap_seconds: 0 }, 'acme');
    assert.equal(foreign.statusCode, 404);
    assert.equal(foreign.json().code, 'not_found');
  });

  it('keeps the answer of an Idempotency-Key sealed: no whsec_ in the idempotency store, and the same secret replayed', async () => {
    const hook = await subscribe('/idempotent');
    const first = await rotate(hook.id, { overlap_seconds: 60 }, 'acme', { 'idempotency-key': 'rotate-once' });
    assert.equal(first.statusCode, 200, first.body);
    const again = await rotate(hook.id, { overlap_seconds: 60 }, 'acme', { 'idempotency-key': 'rotate-once' });
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.json().secret, first.json().secret);
    const stored = JSON.stringify(await t.ctx.database.db.selectFrom('idempotency_keys').selectAll().execute());
    assert.ok(stored.includes('rotate-once'), 'the key is kept');
    assert.ok(!stored.includes('whsec_'), 'no webhook secret in idempotency_keys');
    assert.ok(!stored.includes(first.json().secret.slice('whsec_'.length)), 'not even without its prefix');
  });
});
