// A receiver costs an attempt at most its timeout and 64 KiB of reading, whatever it answers
// (issue 47): the attempt ends within WRS_WEBHOOK_TIMEOUT_MS from connect to the last byte read,
// the socket is destroyed once 64 KiB are read, the outcome is recorded as the docs say, and
// another company's reads keep their pace while it happens.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType, expectStatus } from '../records/fixtures.js';
import { MISBEHAVIOURS, startReceiverProcess, type Misbehaviour, type ReceiverProcess } from './misbehaving-receiver.js';
import { eventually } from './receiver.js';

const TIMEOUT_MS = 2000;
/** The machine is shared and loaded: an attempt may end this much after its timeout. */
const SLACK_MS = 1500;
const LIMIT_BYTES = 64 * 1024;
/** 64 KiB read, plus what the kernel's socket buffers on both sides take in before the socket is destroyed. */
const MOST_WRITTEN_BYTES = 16 * 1024 * 1024;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describeEachDatabase('webhooks: a misbehaving receiver costs at most a timeout and 64 KiB', (kind) => {
  let t: TestApp;
  let receivers: ReceiverProcess;
  const hooks = new Map<Misbehaviour, string>();

  const deliveriesOf = async (behaviour: Misbehaviour) =>
    expectStatus(await t.as('acme', { method: 'GET', url: `/v1/webhooks/${hooks.get(behaviour)}/deliveries` }), 200).results as Array<Record<string, any>>;

  before(async () => {
    t = await createTestApp(kind, {
      env: {
        WRS_WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WRS_WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
        // One attempt per delivery: each connection the receivers see is one attempt.
        WRS_WEBHOOK_MAX_ATTEMPTS: '1',
        WRS_WEBHOOK_POLL_MS: '50',
      },
    });
    t.ctx.webhookDelivery.start();
    await defineType(t, 'acme', 'loan');
    await defineType(t, 'globex', 'loan');
    receivers = await startReceiverProcess();
    for (const behaviour of MISBEHAVIOURS) {
      const url = receivers.urls[behaviour];
      const created = await t.as('acme', { method: 'POST', url: '/v1/webhooks', payload: { url, events: ['record.created'] } });
      hooks.set(behaviour, expectStatus(created, 201).id);
    }
  });
  after(async () => {
    await t.close();
    await receivers.close();
  });

  it('ends each attempt within the timeout, reads at most 64 KiB, and records the outcome', async () => {
    await createRecord(t, 'acme', 'loan');
    const outcomes = new Map<Misbehaviour, Record<string, any>>();
    for (const behaviour of MISBEHAVIOURS) {
      const [delivery] = await eventually(
        () => deliveriesOf(behaviour),
        (list) => list[0] !== undefined && list[0].status !== 'pending',
        TIMEOUT_MS + 10_000,
      );
      outcomes.set(behaviour, delivery!);
      const receiver = await eventually(
        async () => (await receivers.state())[behaviour],
        (state) => state.open === 0,
        TIMEOUT_MS + SLACK_MS,
      );
      assert.equal(receiver.connections.length, 1, `${behaviour}: one attempt, one connection`);
      const [connection] = receiver.connections;
      const lasted = connection!.closedAt! - connection!.openedAt;
      assert.ok(lasted <= TIMEOUT_MS + SLACK_MS, `${behaviour}: the attempt held its connection ${lasted} ms (timeout ${TIMEOUT_MS} ms)`);
      assert.ok(connection!.bytesWritten <= MOST_WRITTEN_BYTES, `${behaviour}: the receiver got ${connection!.bytesWritten} bytes in`);
      if (delivery!.last_response_body !== null) {
        assert.ok(Buffer.byteLength(delivery!.last_response_body) <= LIMIT_BYTES, `${behaviour}: the stored body is at most 64 KiB`);
      }
    }

    // No status within the timeout: the attempt failed, with nothing read to keep.
    const slow = outcomes.get('slow-headers')!;
    assert.equal(slow.status, 'failed');
    assert.equal(slow.last_status_code, null);
    assert.equal(slow.last_error, `no answer within ${TIMEOUT_MS} ms`);
    assert.equal(slow.last_response_body, null);

    // A 2xx status read in time is delivered; the body is kept as far as it was read within the bounds.
    for (const behaviour of ['trickled-body', 'endless-body', 'huge-body', 'never-closes'] as const) {
      const delivery = outcomes.get(behaviour)!;
      assert.equal(delivery.status, 'delivered', `${behaviour}: ${JSON.stringify({ ...delivery, last_response_body: undefined })}`);
      assert.equal(delivery.last_status_code, 200, behaviour);
      assert.equal(delivery.last_error, null, behaviour);
    }
    assert.match(outcomes.get('trickled-body')!.last_response_body, /^a+$/);
    assert.equal(outcomes.get('endless-body')!.last_response_body, 'x'.repeat(LIMIT_BYTES));
    assert.equal(outcomes.get('never-closes')!.last_response_body, 'ok');
    // Bytes 0..255: NUL and invalid UTF-8 are replaced (PostgreSQL's text holds neither), the start kept as sent.
    const huge = outcomes.get('huge-body')!.last_response_body as string;
    assert.ok(huge.startsWith('\uFFFD\u0001\u0002\u0003'), JSON.stringify(huge.slice(0, 8)));
    assert.ok(!huge.includes('\u0000'));
    assert.ok(Buffer.byteLength(huge) > LIMIT_BYTES / 2, 'most of the 64 KiB is kept');
  });

  it("keeps another company's reads within 2x of their latency alone while every kind of receiver misbehaves", async (test) => {
    const readRecordTypes = async () => {
      const started = performance.now();
      expectStatus(await t.as('globex', { method: 'GET', url: '/v1/record-types' }), 200);
      return performance.now() - started;
    };
    const readAlone = async (alone: number[]) => {
      for (let i = 0; i < 100; i++) alone.push(await readRecordTypes());
    };
    for (let i = 0; i < 20; i++) await readRecordTypes();
    // Alone before and after the attack: the machine's other load changes over the seconds the test takes.
    const alone: number[] = [];
    await readAlone(alone);

    // 16 records: 80 attempts at once (16 per receiver, the share of one webhook); the slow
    // receivers hold theirs for the whole timeout. The reads are measured until every receiver's
    // connection is closed.
    await Promise.all(Array.from({ length: 16 }, () => createRecord(t, 'acme', 'loan')));
    const windowStart = Date.now();
    const during: number[] = [];
    const until = performance.now() + 3 * TIMEOUT_MS;
    let attackOver = false;
    while ((performance.now() < until && !attackOver) || during.length < 100) {
      during.push(await readRecordTypes());
      if (during.length % 10 === 0 && performance.now() - (until - 3 * TIMEOUT_MS) > TIMEOUT_MS) {
        attackOver = Object.values(await receivers.state()).every((state) => state.open === 0);
      }
    }
    const attemptsInWindow = Object.values(await receivers.state())
      .flatMap((receiver) => receiver.connections)
      .filter((connection) => (connection.closedAt ?? Date.now()) > windowStart).length;
    assert.ok(attemptsInWindow >= 30, `the attack made ${attemptsInWindow} attempts while the reads were measured`);
    await eventually(
      async () => Object.values(await receivers.state()).every((state) => state.open === 0),
      (done) => done,
      3 * TIMEOUT_MS,
    );
    await readAlone(alone);

    const medianAlone = median(alone);
    const medianDuring = median(during);
    test.diagnostic(
      `${kind}: median ${medianDuring.toFixed(2)} ms over ${during.length} reads during ${attemptsInWindow} attempts, ${medianAlone.toFixed(2)} ms alone`,
    );
    // 2x, with a floor of 25 ms: the machine running the tests is shared, and a read of a
    // millisecond alone may take twenty when other processes take the cores. Before the bound,
    // the reads took over a second.
    const allowed = Math.max(2 * medianAlone, medianAlone + 25);
    assert.ok(
      medianDuring <= allowed,
      `another company's reads: median ${medianDuring.toFixed(2)} ms during the attack, ${medianAlone.toFixed(2)} ms alone (allowed ${allowed.toFixed(2)} ms)`,
    );
  });
});
