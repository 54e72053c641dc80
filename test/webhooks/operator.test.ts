import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { cliEnv, runCli } from '../helpers/cli-process.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType, expectStatus } from '../records/fixtures.js';
import { eventually, FAST_WEBHOOKS, startReceiver, type Receiver } from './receiver.js';

describeEachDatabase('webhooks: operator API', (kind) => {
  let t: TestApp;
  let receiver: Receiver;

  before(async () => {
    receiver = await startReceiver();
    t = await createTestApp(kind, { env: FAST_WEBHOOKS });
    t.ctx.webhookDelivery.start();
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  it("shows a company's webhooks and its failed deliveries, and nothing of another company", async () => {
    const failing = expectStatus(
      await t.as('acme', { method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.base}/fail`, events: ['record.created'] } }),
      201,
    );
    expectStatus(await t.as('acme', { method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.base}/ok`, events: ['*'] } }), 201);
    await defineType(t, 'acme', 'loan');
    await createRecord(t, 'acme', 'loan');
    const list = expectStatus(await t.admin({ method: 'GET', url: '/admin/v1/companies/acme/webhooks' }), 200);
    assert.equal(list.count, 2);
    assert.ok(list.results.every((hook: Record<string, unknown>) => hook.secret === undefined));
    const failed = await eventually(
      async () => expectStatus(await t.admin({ method: 'GET', url: '/admin/v1/companies/acme/webhook-deliveries?status=failed' }), 200),
      (answer) => answer.count === 1,
    );
    assert.equal(failed.results[0].webhook_id, failing.id);
    assert.equal(failed.results[0].attempts, 3);
    const all = expectStatus(await t.admin({ method: 'GET', url: '/admin/v1/companies/acme/webhook-deliveries' }), 200);
    assert.equal(all.count, 2);
    assert.deepEqual(expectStatus(await t.admin({ method: 'GET', url: '/admin/v1/companies/globex/webhooks' }), 200), { count: 0, results: [] });
    expectStatus(await t.admin({ method: 'GET', url: '/admin/v1/companies/acme/webhook-deliveries?status=lost' }), 400);
    expectStatus(await t.admin({ method: 'GET', url: '/admin/v1/companies/acme/webhook-deliveries?colour=red' }), 400);
    expectStatus(await t.as('acme', { method: 'GET', url: '/admin/v1/companies/acme/webhooks' }), 401);
  });
});

/** The first command runs the real CLI in a process of its own, the others run in this process. */
describe('webhooks: operator CLI', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let t: TestApp;
  let receiver: Receiver;

  before(async () => {
    receiver = await startReceiver();
    dir = mkdtempSync(join(tmpdir(), 'wrs-cli-hooks-'));
    env = cliEnv(join(dir, 'wrs.db'));
    t = await createTestApp('sqlite', { env: { ...FAST_WEBHOOKS, WRS_DATABASE_URL: env.WRS_DATABASE_URL! } });
    t.ctx.webhookDelivery.start();
  });
  after(async () => {
    await t.close();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('wrs webhooks list and wrs webhooks failed', async () => {
    const hook = expectStatus(await t.as('cli-hooks', { method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.base}/gone`, events: ['*'] } }), 201);
    await defineType(t, 'cli-hooks', 'loan');
    await createRecord(t, 'cli-hooks', 'loan');
    await eventually(
      async () => expectStatus(await t.admin({ method: 'GET', url: '/admin/v1/companies/cli-hooks/webhook-deliveries?status=failed' }), 200),
      (answer) => answer.count === 1,
    );

    const listed = await runCli(['webhooks', 'list', '--company', 'cli-hooks'], env);
    assert.equal(listed.status, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`^${hook.id}\\tdisabled\\t${receiver.base}/gone\\t\\*$`, 'm'));
    assert.ok(!listed.stdout.includes(hook.secret.slice(6)));
    const json = await runCliInProcess(['webhooks', 'list', '--company', 'cli-hooks', '--json'], env);
    assert.equal(JSON.parse(json.stdout).results[0].id, hook.id);

    const failed = await runCliInProcess(['webhooks', 'failed', '--company', 'cli-hooks'], env);
    assert.equal(failed.status, 0, failed.stderr);
    assert.match(failed.stdout, /company "cli-hooks": 1 failed delivery/);
    assert.match(failed.stdout, /record\.created\t.*\t1 attempt\tthe receiver answered 410 Gone/);
    const failedJson = JSON.parse((await runCliInProcess(['webhooks', 'failed', '--company', 'cli-hooks', '--json'], env)).stdout);
    assert.equal(failedJson.results[0].last_status_code, 410);

    const none = await runCliInProcess(['webhooks', 'failed', '--company', 'nobody'], env);
    assert.match(none.stdout, /company "nobody" has no failed webhook deliveries/);
    assert.equal((await runCliInProcess(['webhooks', 'list'], env)).status, 2);
  });
});
