import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../../src/app-context.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createReplicaContext, createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType, expectStatus } from '../records/fixtures.js';
import { FAST_WEBHOOKS, startReceiver, type Receiver } from './receiver.js';

// 16 slots, 4 a webhook: four hanging webhooks of one company could hold every one of them.
const SLOTS = {
  ...FAST_WEBHOOKS,
  WRS_WEBHOOK_CONCURRENCY: '16',
  // Longer than the test: a hanging attempt holds its slot throughout.
  WRS_WEBHOOK_TIMEOUT_MS: '60000',
};

describeEachDatabase('webhooks: delivery slots shared between companies', (kind) => {
  let t: TestApp;
  let replica: AppContext | undefined;
  let receiver: Receiver;

  before(async () => {
    receiver = await startReceiver();
    t = await createTestApp(kind, { env: SLOTS });
    for (const company of ['hangs', 'steady', 'later']) await defineType(t, company, 'loan');
  });
  after(async () => {
    // The receiver's sockets close first, so the attempts still hanging end now, not at their timeout.
    await receiver.close();
    await replica?.close();
    await t.close();
  });

  /** Registers a webhook of the company for record.created; its receiver path tells the company apart. */
  const subscribe = async (company: string, path: string) =>
    expectStatus(
      await t.as(company, { method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.base}${path}?company=${company}`, events: ['record.created'] } }),
      201,
    );

  /** Milliseconds from the company's record change (its 201) to the delivery's arrival. */
  async function lagOf(company: string, path: string): Promise<number> {
    const changed = Date.now();
    const record = await createRecord(t, company, 'loan');
    const deadline = Date.now() + 10_000;
    for (;;) {
      const arrived = receiver.on(path).find((entry) => JSON.parse(entry.body).data.id === record.id);
      if (arrived) return arrived.at - changed;
      if (Date.now() > deadline) return Number.POSITIVE_INFINITY;
      await sleep(10);
    }
  }

  it("delivers another company's change within 2 s while one company's four webhooks hang with 40 deliveries queued", async (test) => {
    for (let i = 0; i < 4; i++) await subscribe('hangs', '/hang');
    await subscribe('steady', '/ok');
    // Queued before the worker starts: the hanging company's 40 deliveries sort before anything of the other's.
    for (let i = 0; i < 10; i++) await createRecord(t, 'hangs', 'loan');
    t.ctx.webhookDelivery.start();
    await receiver.waitFor('/hang', 4);
    await sleep(300);
    const hanging = receiver.on('/hang').length;

    const lag = await lagOf('steady', '/ok');
    assert.ok(lag < 2000, `the other company's delivery arrived ${lag} ms after its change`);
    assert.ok(hanging >= 4 && hanging <= 8, `the hanging company holds ${hanging} of the 16 slots; at most half`);
    // Its slot is given back at once, and the next change is as quick.
    const again = await lagOf('steady', '/ok');
    assert.ok(again < 2000, `the next delivery arrived ${again} ms after its change`);
    test.diagnostic(`another company's delivery lag: ${lag} ms, then ${again} ms`);
    assert.equal(receiver.on('/hang').length, hanging, 'the hanging company got no slot more meanwhile');
  });

  it('serves a company whose deliveries sort after a backlog, with a second replica claiming too', async (test) => {
    // A second process on the same database with its own worker and slots: the hanging company fills its half there too.
    replica = await createReplicaContext(t.database, SLOTS);
    replica.webhookDelivery.start();
    await receiver.waitFor('/hang', receiver.on('/hang').length + 4);
    // More of the hanging company's deliveries, all older than the next change of another company.
    for (let i = 0; i < 20; i++) await createRecord(t, 'hangs', 'loan');
    await subscribe('later', '/later');
    await sleep(300);
    const lag = await lagOf('later', '/later');
    assert.ok(lag < 2000, `the later company's delivery arrived ${lag} ms after its change`);
    const steady = await lagOf('steady', '/ok');
    assert.ok(steady < 2000, `the steady company's delivery arrived ${steady} ms after its change`);
    test.diagnostic(`lag of the later company: ${lag} ms, of the steady one: ${steady} ms`);
  });
});

describeEachDatabase('webhooks: at most WRS_WEBHOOK_MAX_PER_COMPANY per company', (kind) => {
  let t: TestApp;

  before(async () => {
    t = await createTestApp(kind, { env: FAST_WEBHOOKS });
  });
  after(() => t.close());

  const create = (company: string, n: number) =>
    t.as(company, { method: 'POST', url: '/v1/webhooks', payload: { url: `http://127.0.0.1:9/hook-${n}`, events: ['*'] } });

  it('refuses the 21st webhook with 409 naming the limit, frees a place on delete, and leaves other companies alone', async () => {
    const created = [];
    for (let i = 0; i < 20; i++) created.push(expectStatus(await create('acme', i), 201));
    const refused = expectStatus(await create('acme', 20), 409, 'webhook_limit_reached');
    assert.equal(refused.limit, 20);
    assert.match(refused.message, /already has 20 webhooks.*WRS_WEBHOOK_MAX_PER_COMPANY/);
    assert.equal(expectStatus(await t.as('acme', { method: 'GET', url: '/v1/webhooks' }), 200).count, 20);

    expectStatus(await create('globex', 0), 201);
    expectStatus(await t.as('acme', { method: 'DELETE', url: `/v1/webhooks/${created[3].id}` }), 204);
    expectStatus(await create('acme', 21), 201);
    expectStatus(await create('acme', 22), 409, 'webhook_limit_reached');
    assert.equal(expectStatus(await t.as('acme', { method: 'GET', url: '/v1/webhooks' }), 200).count, 20);
  });

  it('holds the limit when creates race', async () => {
    for (let i = 0; i < 15; i++) expectStatus(await create('racing', i), 201);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => create('racing', 100 + i)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    assert.deepEqual(statuses, [...Array(5).fill(201), ...Array(7).fill(409)]);
    assert.equal(expectStatus(await t.as('racing', { method: 'GET', url: '/v1/webhooks' }), 200).count, 20);
  });
});
