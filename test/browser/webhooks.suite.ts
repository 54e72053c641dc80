import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { DEMO_COMPANY_ID, assertAccessible, assertNoPageErrors, browserSuite, newSignedInPage, browserSuiteOf } from './harness.js';

/** A receiver on 127.0.0.1: /ok answers 200, /fail 500; it keeps each request's webhook-id. */
interface Receiver {
  readonly base: string;
  idsAt(path: string): string[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const received: { path: string; webhookId: string }[] = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.push({ path: request.url ?? '/', webhookId: String(request.headers['webhook-id']) });
      response.writeHead(request.url === '/fail' ? 500 : 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    idsAt: (path) => received.filter((entry) => entry.path === path).map((entry) => entry.webhookId),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export const webhooksSuite = browserSuiteOf('web console: webhooks', (kind, shared) => {
  const suite = browserSuite(kind, {
    shared,
    env: { WRS_WEBHOOK_RETRY_BASE_MS: '40', WRS_WEBHOOK_MAX_ATTEMPTS: '2', WRS_WEBHOOK_POLL_MS: '50', WRS_WEBHOOK_TIMEOUT_MS: '2000' },
  });
  let receiver: Receiver;
  before(async () => {
    // As `npm start` does: the test app builds the delivery worker but leaves starting it to its user.
    suite.service.t.ctx.webhookDelivery.start();
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver?.close();
  });

  it('creates webhooks (the secret shown once, a refused URL beside its field), shows deliveries and redelivers', async () => {
    const { context, page, errors } = await newSignedInPage(suite);
    // Where the sign-in leads: the board, whose navigation leads on.
    await page.goto(`${suite.service.baseUrl}/app/`);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('No webhook yet').waitFor();
    await assertAccessible(page, 'webhooks page');

    await page.getByLabel('Receiver URL').fill('ftp://example.com/hook');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const urlError = page.locator('#webhook-url-error');
    await urlError.waitFor();
    assert.match(await urlError.innerText(), /url: must be http or https/);
    assert.equal(await page.getByLabel('Receiver URL').getAttribute('aria-invalid'), 'true');

    await addWebhook(page, `${receiver.base}/ok`, 'Browser test receiver');
    const secretPanel = page.locator('.webhook-secret');
    assert.match(await secretPanel.innerText(), /shown only now/);
    const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    const listed = (await suite.service.t.as(DEMO_COMPANY_ID, { method: 'GET', url: '/v1/webhooks' })).json() as { results: object[] };
    assert.ok(!JSON.stringify(listed).includes(secret.slice(6)), 'the list never shows the secret');
    await assertAccessible(page, 'webhooks page showing a secret');
    await page.getByRole('button', { name: 'I have kept it: hide the secret' }).click();
    assert.equal(await secretPanel.count(), 0);
    assert.equal(await page.getByText(secret).count(), 0);

    await addWebhook(page, `${receiver.base}/fail`, 'Failing receiver');
    await page.getByRole('button', { name: 'I have kept it: hide the secret' }).click();

    await updateARecord();
    await waitUntil(() => receiver.idsAt('/ok').length === 1, 'the record.updated delivery reached the receiver');

    const ok = card(page, '/ok');
    await ok.getByRole('button', { name: 'Show deliveries of Browser test receiver' }).click();
    const delivered = ok.locator('.delivery-row');
    await refreshUntil(ok, 'Browser test receiver', () => delivered.filter({ hasText: 'delivered' }).count());
    const deliveryId = receiver.idsAt('/ok')[0]!;
    assert.deepEqual(await statusCells(delivered.first()), [`record.updated\n${deliveryId}`, 'delivered', '1', '200']);

    await ok.getByRole('button', { name: `Redeliver ${deliveryId}` }).click();
    await ok.getByRole('status').filter({ hasText: 'will be sent again' }).waitFor();
    await waitUntil(() => receiver.idsAt('/ok').length === 2, 'the redelivery reached the receiver');
    assert.deepEqual(receiver.idsAt('/ok'), [deliveryId, deliveryId], 'a redelivery keeps its webhook-id');
    await refreshUntil(ok, 'Browser test receiver', async () => {
      const [, status, attempts] = await statusCells(delivered.first());
      return status === 'delivered' && attempts === '2' ? 1 : 0;
    });

    const failing = card(page, '/fail');
    await failing.getByRole('button', { name: 'Show deliveries of Failing receiver' }).click();
    await refreshUntil(failing, 'Failing receiver', () => failing.locator('.delivery-row', { hasText: 'failed' }).count());
    const [, status, attempts, lastAnswer] = await statusCells(failing.locator('.delivery-row').first());
    assert.deepEqual([status, attempts], ['failed', '2']);
    assert.match(lastAnswer!, /^500/);
    await assertAccessible(page, 'webhooks page with deliveries');
    assertNoPageErrors(errors, [/status of 400/]);
    await context.close();
  });

  it('disables, enables and deletes a webhook after confirmation', async () => {
    const created = await suite.service.t.as(DEMO_COMPANY_ID, {
      method: 'POST',
      url: '/v1/webhooks',
      payload: { url: `${receiver.base}/switch`, events: ['record.created'], description: 'Switched receiver' },
    });
    assert.equal(created.statusCode, 201);
    const id = (created.json() as { id: string }).id;
    const stored = async () => suite.service.t.as(DEMO_COMPANY_ID, { method: 'GET', url: `/v1/webhooks/${id}` });

    const { context, page, errors } = await newSignedInPage(suite);
    await page.goto(`${suite.service.baseUrl}/app/webhooks`);
    const switched = card(page, '/switch');
    await switched.getByRole('button', { name: 'Disable Switched receiver' }).click();
    await switched.getByText('Disabled', { exact: true }).waitFor();
    assert.equal(((await stored()).json() as { enabled: boolean }).enabled, false);
    await switched.getByRole('button', { name: 'Enable Switched receiver' }).click();
    await switched.getByText('Enabled', { exact: true }).waitFor();
    assert.equal(((await stored()).json() as { enabled: boolean }).enabled, true);

    await switched.getByRole('button', { name: 'Delete Switched receiver' }).click();
    await switched.getByRole('button', { name: 'Keep it' }).click();
    assert.equal((await stored()).statusCode, 200, 'keeping it deletes nothing');
    await switched.getByRole('button', { name: 'Delete Switched receiver' }).click();
    await switched.getByRole('button', { name: 'Yes, delete it' }).click();
    await switched.waitFor({ state: 'detached' });
    assert.equal((await stored()).statusCode, 404);
    assertNoPageErrors(errors);
    await context.close();
  });

  it('rotates a secret after confirmation: the new one shown once, with when the old one stops', async () => {
    const created = await suite.service.t.as(DEMO_COMPANY_ID, {
      method: 'POST',
      url: '/v1/webhooks',
      payload: { url: `${receiver.base}/rotated`, events: ['record.created'], description: 'Rotated receiver' },
    });
    assert.equal(created.statusCode, 201);
    const oldSecret = (created.json() as { secret: string }).secret;

    const { context, page, errors } = await newSignedInPage(suite);
    await page.goto(`${suite.service.baseUrl}/app/webhooks`);
    const rotated = card(page, '/rotated');
    await rotated.getByRole('button', { name: 'Rotate secret of Rotated receiver' }).click();
    await rotated.getByRole('button', { name: 'Keep the secret' }).click();
    assert.equal(await rotated.locator('.webhook-secret').count(), 0, 'keeping it rotates nothing');
    await rotated.getByRole('button', { name: 'Rotate secret of Rotated receiver' }).click();
    await rotated.getByLabel('Old secret keeps signing for').selectOption({ label: '1 hour' });
    await assertAccessible(page, 'webhooks page confirming a rotation');
    const before = suite.service.clock.now().getTime();
    await rotated.getByRole('button', { name: 'Yes, rotate it' }).click();
    const notice = rotated.locator('.webhook-secret');
    await notice.waitFor();
    assert.match(await notice.innerText(), /shown only now/);
    assert.match(await notice.innerText(), /The old secret signs too until/);
    const stops = Date.parse((await notice.locator('time').getAttribute('datetime'))!);
    assert.ok(Math.abs(stops - before - 3600_000) < 60_000, 'the old secret stops in an hour');
    const secret = await rotated.getByRole('textbox', { name: 'New signing secret' }).inputValue();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.notEqual(secret, oldSecret);
    await assertAccessible(page, 'webhooks page showing a rotated secret');
    await rotated.getByRole('button', { name: 'I have kept it: hide the secret' }).click();
    assert.equal(await page.getByText(secret).count(), 0);
    assertNoPageErrors(errors);
    await context.close();
  });

  async function updateARecord(): Promise<void> {
    const list = await suite.service.t.as(DEMO_COMPANY_ID, { method: 'GET', url: '/v1/records?record_type=custom&limit=1' });
    const record = (list.json() as { results: { id: string }[] }).results[0]!;
    const patched = await suite.service.t.as(DEMO_COMPANY_ID, { method: 'PATCH', url: `/v1/records/${record.id}`, payload: { fld_signed: true } });
    assert.equal(patched.statusCode, 200, patched.body);
  }
});

async function addWebhook(page: Page, url: string, description: string): Promise<void> {
  await page.getByLabel('Receiver URL').fill(url);
  await page.getByLabel('All event types (*), including ones added later').uncheck();
  await page.getByLabel('record.updated').check();
  await page.getByLabel('Description (optional)').fill(description);
  await page.getByRole('button', { name: 'Add webhook' }).click();
  await page.locator('.webhook-secret').waitFor();
  assert.equal(await page.locator('#webhook-url-error').count(), 0);
}

/** Event type (with the delivery id), status, attempts and last answer of a delivery row. */
async function statusCells(row: Locator): Promise<string[]> {
  return (await row.locator('td').allInnerTexts()).slice(0, 4).map((text) => text.trim());
}

const card = (page: Page, path: string): Locator => page.locator('.webhook-card', { has: page.locator('h3', { hasText: path }) });

/** Refreshes a card's deliveries until `found` counts at least one. */
async function refreshUntil(webhookCard: Locator, label: string, found: () => Promise<number>): Promise<void> {
  await waitUntil(async () => {
    if ((await found()) > 0) return true;
    await webhookCard.getByRole('button', { name: `Refresh deliveries of ${label}` }).click();
    await new Promise((resolve) => setTimeout(resolve, 200));
    return (await found()) > 0;
  }, `deliveries of ${label}`);
}

async function waitUntil(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
