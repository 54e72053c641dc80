import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { createUnitOfWork } from '../../src/storage/unit-of-work.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { oneRendererForTheFile } from '../helpers/shared-pdf-renderer.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineRecordType, INVOICE_TYPE, putTemplate } from '../pdf/fixtures/records.js';
import { invoiceTemplate } from '../pdf/fixtures/templates.js';
import { expectStatus } from '../records/fixtures.js';
import { eventually, FAST_WEBHOOKS, startReceiver, type Receiver } from './receiver.js';

// The file's apps share one PDF renderer, whose thread loads pdfme once for all their renders.
const SHARED_RENDERER = oneRendererForTheFile();

describeEachDatabase('webhooks: delivery', (kind) => {
  let t: TestApp;
  let receiver: Receiver;
  let hook: { id: string; secret: string };
  let recordHook: { id: string; secret: string };

  const subscribe = async (path: string, events: string[], company = 'acme') =>
    expectStatus(await t.as(company, { method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.base}${path}`, events } }), 201);
  /** The body of a verified delivery: the signature checked as a receiver would, with the specification's library. */
  const verified = (secret: string, received: { body: string; headers: Record<string, string> }) =>
    new Webhook(secret).verify(received.body, received.headers) as { type: string; timestamp: string; data: any };

  before(async () => {
    receiver = await startReceiver();
    t = await createTestApp(kind, { env: { ...FAST_WEBHOOKS, WRS_PDF_WORKERS: '1' }, context: SHARED_RENDERER });
    t.ctx.webhookDelivery.start();
    await defineRecordType(t, 'acme', 'invoice', INVOICE_TYPE);
    await putTemplate(t, 'acme', 'invoice', invoiceTemplate());
    hook = await subscribe('/all', ['*']);
    recordHook = await subscribe('/records', ['record.created', 'record.updated']);
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  it('delivers record.created and record.updated, signed, with the record as GET answers it', async () => {
    const record = await createRecord(t, 'acme', 'invoice', { f_customer: 'Ada' });
    const [created] = await receiver.waitFor('/records', 1);
    const body = verified(recordHook.secret, created!);
    assert.equal(body.type, 'record.created');
    assert.match(body.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(body.data, expectStatus(await t.as('acme', { method: 'GET', url: `/v1/records/${record.id}` }), 200));
    assert.equal(created!.headers['content-type'], 'application/json');
    assert.match(created!.headers['webhook-id']!, /^msg_/);
    assert.ok(Math.abs(Number(created!.headers['webhook-timestamp']) - Date.now() / 1000) < 10);
    assert.match(created!.headers['webhook-signature']!, /^v1,[A-Za-z0-9+/]+=*$/);
    assert.throws(() => new Webhook(hook.secret).verify(created!.body, created!.headers), 'another secret does not verify');

    expectStatus(await t.as('acme', { method: 'PATCH', url: `/v1/records/${record.id}`, payload: { status: 'sent' } }), 200);
    const [, updated] = await receiver.waitFor('/records', 2);
    const updatedBody = verified(recordHook.secret, updated!);
    assert.equal(updatedBody.type, 'record.updated');
    assert.deepEqual(updatedBody.data, expectStatus(await t.as('acme', { method: 'GET', url: `/v1/records/${record.id}` }), 200));
    assert.notEqual(updated!.headers['webhook-id'], created!.headers['webhook-id']);
  });

  it('delivers a PATCH made with a record token, a token mint (without the token) and a pdf_create step', async () => {
    const before = receiver.on('/all').length;
    const record = await createRecord(t, 'acme', 'invoice', { f_customer: 'Grace' });
    const minted = expectStatus(await t.as('acme', { method: 'POST', url: `/v1/records/${record.id}/actions`, payload: { expires_in: 60 } }), 201);
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/v1/records/${record.id}`,
      headers: { authorization: `Bearer ${minted.token}` },
      payload: { f_amount: 12 },
    });
    expectStatus(patched, 200);
    const step = expectStatus(
      await t.as('acme', {
        method: 'PUT',
        url: `/v1/records/${record.id}/steps`,
        payload: { type: 'pdf_create', inputs: { pdf_filename: 'inv', template_id: 'invoice' } },
      }),
      200,
    );
    const arrived = (await receiver.waitFor('/all', before + 4)).slice(before).map((entry) => verified(hook.secret, entry));
    const byType = new Map(arrived.map((body) => [body.type, body.data]));
    assert.deepEqual([...byType.keys()].sort(), ['record.created', 'record.updated', 'record_token.created', 'step.completed']);
    const { token: _token, ...tokenView } = minted;
    assert.deepEqual(byType.get('record_token.created'), tokenView);
    assert.equal(byType.get('record.updated').fields.amount, 12);
    assert.deepEqual(byType.get('step.completed'), { record_id: record.id, type: 'pdf_create', details: step.details });
  });

  it('keeps the webhook-id on redelivery, and lists the history newest first', async () => {
    const record = await createRecord(t, 'acme', 'invoice', { f_customer: 'Linus' });
    const history = await eventually(
      async () => expectStatus(await t.as('acme', { method: 'GET', url: `/v1/webhooks/${recordHook.id}/deliveries` }), 200),
      (list) => list.results[0]?.status === 'delivered' && list.results.length >= 3,
    );
    assert.equal(history.count, history.results.length);
    const newest = history.results[0];
    assert.deepEqual(Object.keys(newest).sort(), [
      'attempts',
      'created_at',
      'delivered_at',
      'event_type',
      'id',
      'last_error',
      'last_response_body',
      'last_status_code',
      'next_attempt_at',
      'status',
      'webhook_id',
    ]);
    assert.equal(newest.event_type, 'record.created');
    assert.equal(newest.attempts, 1);
    assert.equal(newest.last_status_code, 200);
    assert.equal(newest.last_response_body, 'ok', "the receiver's answer is kept");
    assert.equal(newest.next_attempt_at, null);
    const ids = history.results.map((delivery: { id: string }) => delivery.id);
    assert.deepEqual(ids, [...ids].sort().reverse());
    const original = receiver.on('/records').find((entry) => entry.headers['webhook-id'] === newest.id)!;
    assert.equal(verified(recordHook.secret, original).data.id, record.id);

    const redeliver = await t.as('acme', { method: 'POST', url: `/v1/webhooks/${recordHook.id}/deliveries/${newest.id}/redeliver` });
    const pending = expectStatus(redeliver, 202);
    assert.equal(pending.id, newest.id);
    assert.equal(pending.status, 'pending');
    const again = await eventually(
      async () => receiver.on('/records').filter((entry) => entry.headers['webhook-id'] === newest.id),
      (copies) => copies.length === 2,
    );
    assert.equal(again[1]!.body, again[0]!.body);
    verified(recordHook.secret, again[1]!);
    const after = await eventually(
      async () => expectStatus(await t.as('acme', { method: 'GET', url: `/v1/webhooks/${recordHook.id}/deliveries` }), 200),
      (list) => list.results[0].status === 'delivered' && list.results[0].attempts === 2,
    );
    assert.equal(after.results[0].id, newest.id);
    expectStatus(await t.as('acme', { method: 'POST', url: `/v1/webhooks/${recordHook.id}/deliveries/msg_unknown/redeliver` }), 404, 'not_found');
  });

  it('sends nothing for a change whose transaction rolls back, nor for a refused write', async () => {
    const marker = `rollback-${Date.now()}`;
    await assert.rejects(
      createUnitOfWork(t.ctx.database.db).run(async (scope) => {
        await t.ctx.webhookOutbox.enqueue(scope, 'acme', 'record.created', { id: marker });
        throw new Error('the change failed after its deliveries were written');
      }),
      /change failed/,
    );
    const record = await createRecord(t, 'acme', 'invoice', { f_customer: 'Barbara' });
    expectStatus(await t.as('acme', { method: 'PATCH', url: `/v1/records/${record.id}`, payload: { f_amount: 'lots' } }), 400);
    await eventually(
      async () => receiver.on('/records').map((entry) => verified(recordHook.secret, entry).data.id),
      (ids) => ids.includes(record.id),
    );
    await sleep(200);
    const bodies = receiver.on('/records').map((entry) => verified(recordHook.secret, entry));
    assert.ok(!bodies.some((body) => body.data.id === marker));
    assert.equal(bodies.filter((body) => body.data.id === record.id).length, 1, 'the refused PATCH sent nothing');
    const rows = await t.ctx.database.db.selectFrom('webhook_deliveries').select('payload').execute();
    assert.ok(!rows.some((row) => row.payload.includes(marker)));
  });

  it("delivers nothing to another company's webhooks, nor to a disabled one", async () => {
    const globex = await subscribe('/globex', ['*'], 'globex');
    const disabled = await subscribe('/disabled', ['*']);
    expectStatus(await t.as('acme', { method: 'PATCH', url: `/v1/webhooks/${disabled.id}`, payload: { enabled: false } }), 200);
    const record = await createRecord(t, 'acme', 'invoice', { f_customer: 'Edsger' });
    await eventually(
      async () => receiver.on('/all').map((entry) => verified(hook.secret, entry).data.id),
      (ids) => ids.includes(record.id),
    );
    await sleep(150);
    assert.equal(receiver.on('/globex').length, 0);
    assert.equal(receiver.on('/disabled').length, 0);
    assert.ok(globex.id);
  });
});
