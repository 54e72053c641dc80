import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_COMPANY_ID, assertAccessible, assertNoPageErrors, newSignedInPage, screenshot, browserSuite, browserSuiteOf } from './harness.js';

const TYPE = 1;
const FLOW = 2;
const SESSION = 3;

export const eventsExplorerSuite = browserSuiteOf('web console: events explorer', (kind, shared) => {
  const suite = browserSuite(kind, { shared });

  async function openExplorer(query = ''): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
    const { context, page, errors } = await newSignedInPage(suite);
    await whileListing(page, () => page.goto(`${suite.service.baseUrl}/app/events${query}`));
    return { page, errors, close: () => context.close() };
  }

  async function ingest(events: Record<string, unknown>[]): Promise<void> {
    const response = await suite.service.t.admin({
      method: 'POST',
      url: `/admin/v1/companies/${DEMO_COMPANY_ID}/events`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(events),
    });
    assert.equal(response.statusCode, 200, response.body);
  }

  it('filters by an exact type, a numeric __gt and a __contains, keeping the query in the address across a reload', async () => {
    const { page, errors, close } = await openExplorer();
    assert.equal(await resultRows(page).count(), 100, 'the API default page of 100');
    await assertAccessible(page, 'events explorer');

    await addFilter(page, 1, 'type', 'eq', 'user_flow_decision_selected');
    await addFilter(page, 2, 'flow_session', 'gt', '8');
    await whileListing(page, () => page.getByRole('button', { name: 'Apply' }).click());
    const query = new URL(page.url()).searchParams;
    assert.equal(query.get('type'), 'user_flow_decision_selected');
    assert.equal(query.get('flow_session__gt'), '8');
    const types = await column(page, TYPE);
    assert.ok(types.length > 0);
    assert.deepEqual(new Set(types), new Set(['user_flow_decision_selected']));
    assert.ok((await column(page, SESSION)).every((session) => Number(session) > 8));

    await addFilter(page, 3, 'flow_key', 'contains', 'vendor');
    await whileListing(page, () => page.getByRole('button', { name: 'Apply' }).click());
    const flows = await column(page, FLOW);
    assert.ok(flows.length > 0 && flows.length < types.length);
    assert.deepEqual(new Set(flows), new Set(['vendor-onboarding']));
    assert.equal(await expected(`/v1/events?${new URL(page.url()).searchParams}`), flows.length, 'as many rows as the API answers');

    await whileListing(page, () => page.reload());
    assert.equal(await page.getByLabel('Value of filter 3').inputValue(), 'vendor');
    assert.equal(await page.getByLabel('Operator of filter 3').inputValue(), 'contains');
    assert.deepEqual(await column(page, FLOW), flows);
    await assertAccessible(page, 'events explorer with filters');
    assertNoPageErrors(errors);
    await close();
  });

  it('orders descending and pages with the chosen page size', async () => {
    const { page, errors, close } = await openExplorer();
    await page.getByLabel('Order by').selectOption('flow_session');
    await page.getByLabel('Direction').selectOption('desc');
    await page.getByLabel('Page size').selectOption('25');
    await whileListing(page, () => page.getByRole('button', { name: 'Apply' }).click());
    assert.equal(new URL(page.url()).search, '?order_by=-flow_session&limit=25');
    const first = (await column(page, SESSION)).map(Number);
    assert.equal(first.length, 25);
    assert.equal(first[0], 16);
    assert.deepEqual(
      first,
      [...first].sort((a, b) => b - a),
    );

    await whileListing(page, () => page.getByRole('button', { name: 'Next page' }).click());
    assert.equal(new URL(page.url()).searchParams.get('page'), '2');
    assert.match(await page.locator('.event-results [role=status]').innerText(), /Events 26–50, page 2/);
    const second = (await column(page, SESSION)).map(Number);
    assert.equal(second.length, 25);
    assert.ok(second[0]! <= first.at(-1)!);
    await whileListing(page, () => page.getByRole('button', { name: 'Previous page' }).click());
    assert.deepEqual((await column(page, SESSION)).map(Number), first);
    assertNoPageErrors(errors);
    await close();
  });

  it('explains a value the API refuses beside the filters, in words, and marks the value', async () => {
    const { page, errors, close } = await openExplorer();
    await addFilter(page, 1, 'flow_session', 'eq', '1.5');
    await whileListing(page, () => page.getByRole('button', { name: 'Apply' }).click());
    const refusal = await suite.service.t.as(DEMO_COMPANY_ID, { method: 'GET', url: '/v1/events?flow_session=1.5' });
    assert.equal(refusal.statusCode, 400);
    assert.match(refusal.json().message, /'flow_session' must be an integer/);
    const alert = page.getByRole('alert');
    // The refusal in words, not the API's message.
    assert.equal(await alert.innerText(), 'Check the filters: Flow session: enter a whole number, such as 3.');
    assert.equal(await page.getByLabel('Value of filter 1').getAttribute('aria-invalid'), 'true');
    assert.equal(await resultRows(page).count(), 0);
    await assertAccessible(page, 'events explorer with a refused query');
    assertNoPageErrors(errors, [/status of 400/]);
    await close();
  });

  it('live tail of every type, with the demo events listed newest first (screenshot)', async () => {
    const { page, errors, close } = await openExplorer('?order_by=-created_at&limit=25');
    await startTail(page);
    await ingest([
      {
        type: 'user_flow_session_started',
        connection_id: 'conn_02',
        connection_key: 'netsuite',
        flow_id: 'flow_vendor_onboarding',
        flow_key: 'vendor-onboarding',
        flow_session: 17,
        user_id: '3f6c2a9e-8d41-4b7a-9e2c-51d0f7a8b612',
        version_id: 'ver_vendor_onboarding_2',
        version_key: 'v2',
      },
    ]);
    await page.locator('.live-tail-events tbody tr', { hasText: 'vendor-onboarding' }).waitFor();
    await page.locator('.live-tail-events summary').first().click();
    assert.match(await page.locator('.live-tail-events pre').first().innerText(), /"flow_session": 17/);
    await page.locator('.live-tail-events summary').first().click();
    await screenshot(page, 'events-explorer');
    assertNoPageErrors(errors);
    await close();
  });

  it('live tail: follows one exact type, and an ingested event of that type arrives marked as new', async () => {
    const { page, errors, close } = await openExplorer('?type=browser.tail.followed');
    await startTail(page);
    assert.match(await page.locator('.live-tail-scope').innerText(), /type browser\.tail\.followed/);
    await ingest([
      { type: 'browser.tail.ignored', flow_key: 'ignored-flow' },
      { type: 'browser.tail.followed', flow_key: 'followed-flow', flow_session: 7 },
    ]);
    const live = page.locator('.live-tail-events tbody tr');
    await live.filter({ hasText: 'followed-flow' }).waitFor();
    assert.equal(await live.count(), 1, 'the other type is not followed');
    assert.equal(await page.locator('.live-tail-events').getAttribute('aria-live'), 'polite');
    assert.match(await live.first().innerText(), /New/);
    assert.match((await live.first().getAttribute('class')) ?? '', /event-new/);

    await page.getByRole('button', { name: 'Stop live tail' }).click();
    await page.locator('.live-status', { hasText: 'Off' }).waitFor();
    await assertAccessible(page, 'events explorer with the live tail');
    assertNoPageErrors(errors);
    await close();
  });

  async function expected(path: string): Promise<number> {
    const response = await suite.service.t.as(DEMO_COMPANY_ID, { method: 'GET', url: path }, 'demo-user');
    assert.equal(response.statusCode, 200, response.body);
    return (response.json() as { count: number }).count;
  }
});

/** Runs an action that lists events, and waits until the page shows the answer. */
async function whileListing(page: Page, action: () => Promise<unknown>): Promise<void> {
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/v1/events');
  await action();
  await answered;
  await page.locator('.event-results[aria-busy="false"]').waitFor();
}

async function addFilter(page: Page, number: number, field: string, operator: string, value: string): Promise<void> {
  await page.getByRole('button', { name: 'Add filter' }).click();
  await page.getByLabel(`Field of filter ${number}`).selectOption(field);
  const operatorSelect = page.getByLabel(`Operator of filter ${number}`);
  if (await operatorSelect.isEnabled()) await operatorSelect.selectOption(operator);
  await page.getByLabel(`Value of filter ${number}`).fill(value);
}

async function startTail(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Start live tail' }).click();
  await page.locator('.live-status', { hasText: 'Live' }).waitFor();
}

const resultRows = (page: Page) => page.locator('.event-results tbody tr');

async function column(page: Page, index: number): Promise<string[]> {
  return resultRows(page)
    .locator(`td:nth-child(${index + 1})`)
    .allInnerTexts();
}
