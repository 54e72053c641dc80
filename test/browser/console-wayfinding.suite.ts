import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  assertAccessible,
  assertNoPageErrors,
  DEMO_COMPANY_ID,
  newPage,
  newSignedInPage,
  putSession,
  screenshot,
  signIn,
  browserSuite,
  browserSuiteOf,
} from './harness.js';

// Every console screen, as a person opens it; each names what shows once the page has its data.
const SCREENS: { name: string; path: string; ready: (page: Page) => Promise<void> }[] = [
  { name: 'board', path: '/app/', ready: (page) => page.locator('.view-column').first().waitFor() },
  { name: 'records', path: '/app/records', ready: (page) => page.locator('table.records-table').waitFor() },
  { name: 'record', path: '/app/records/demo-loan-02', ready: (page) => page.getByRole('heading', { name: 'Form links' }).waitFor() },
  { name: 'events', path: '/app/events', ready: (page) => page.locator('.event-results[aria-busy="false"] tbody tr').first().waitFor() },
  { name: 'checks', path: '/app/checks', ready: (page) => page.locator('table.checks-table').waitFor() },
  { name: 'webhooks', path: '/app/webhooks', ready: (page) => page.getByRole('heading', { level: 1 }).waitFor() },
  { name: 'not found', path: '/app/no-such-page', ready: (page) => page.getByRole('heading', { name: 'Page not found' }).waitFor() },
];

/** The page's width beyond the viewport, in CSS pixels: 0 when nothing makes it scroll sideways. */
const sidewaysOverflow = (page: Page) => page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth') as Promise<number>;

/** Elements wider than the viewport's right edge, to name in a failure. */
const overflowing = (page: Page) =>
  page.evaluate(`[...document.querySelectorAll('body *')]
    .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !el.closest('.table-scroll'))
    .slice(0, 5).map((el) => el.tagName + '.' + el.className)`);

export const consoleWayfindingSuite = browserSuiteOf('web console: finding the way (phone width, words, dates, dead ends)', (kind, shared) => {
  const suite = browserSuite(kind, { shared });

  async function signedIn(options: { width?: number; height?: number } = {}) {
    return newSignedInPage(suite, options);
  }

  it('every screen fits a 390 px phone without sideways scrolling, and is accessible there', async () => {
    const { context, page, errors } = await newPage(suite.browser, { width: 390, height: 844 });
    await page.goto(`${suite.service.baseUrl}/app/`);
    await page.getByLabel('Bearer token').waitFor();
    assert.equal(await sidewaysOverflow(page), 0, 'sign-in');
    await signIn(page, suite.service.baseUrl, await suite.service.demoToken());
    for (const screen of SCREENS) {
      await page.goto(`${suite.service.baseUrl}${screen.path}`);
      await screen.ready(page);
      assert.equal(await sidewaysOverflow(page), 0, `${screen.name} scrolls sideways at 390 px: ${JSON.stringify(await overflowing(page))}`);
      await assertAccessible(page, `${screen.name} at 390 px`);
    }
    await page.goto(`${suite.service.baseUrl}/app/events`);
    await SCREENS[3]!.ready(page);
    // The events themselves too: a block per event, not a table to scroll sideways.
    const table = await page.evaluate(`(() => { const s = document.querySelector('.event-results .table-scroll'); return s.scrollWidth - s.clientWidth; })()`);
    assert.equal(table, 0, 'the events table scrolls sideways at 390 px');
    await screenshot(page, 'events-phone');
    assertNoPageErrors(errors);
    await context.close();
  });

  it('sign-in says where a token comes from, and tells the operator token, a form link and a forged token apart', async () => {
    const { context, page, errors } = await newPage(suite.browser);
    await page.goto(`${suite.service.baseUrl}/app/`);
    assert.match(await page.locator('#token-hint').innerText(), /identity provider[\s\S]*npm start prints one as TOKEN/);
    const refusal = async (token: string) => {
      await page.goto(`${suite.service.baseUrl}/app/`);
      await page.getByLabel('Bearer token').fill(token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      const alert = page.locator('#token-error');
      await alert.waitFor();
      return alert.innerText();
    };
    assert.match(
      await refusal(suite.service.t.ctx.config.adminToken!),
      /^This is the operator token \(ADMIN_TOKEN, WRS_ADMIN_TOKEN\): it opens the operator API/,
    );
    const minted = await suite.service.t.as(DEMO_COMPANY_ID, { method: 'POST', url: '/v1/records/demo-loan-03/tokens', payload: { expires_in: 600 } });
    assert.match(await refusal(minted.json().token), /form link’s record token: it opens one record in the hosted form/);
    const forged = (await suite.service.demoToken()).replace(/\.[^.]+$/, '.c2lnbmF0dXJl');
    assert.match(await refusal(forged), /does not trust this token’s signature/);
    assert.match(await refusal('not a token'), /not a token the console takes/);
    await assertAccessible(page, 'sign-in with a refusal');
    assertNoPageErrors(errors, [/401/]);
    await context.close();
  });

  it('the record-type filter takes a type ID as the table shows it; an unknown type or view says so', async () => {
    const { context, page, errors } = await signedIn();
    await page.goto(`${suite.service.baseUrl}/app/records`);
    await page.locator('table.records-table').waitFor();
    // The rows come before the record types that name them: wait for the names.
    const loan = page.locator('tr[data-record-id="demo-loan-01"]');
    await loan.filter({ hasText: 'Equipment loan (equipment-loan)' }).waitFor();
    assert.match(await loan.innerText(), /Equipment loan \(equipment-loan\)\s+New\s+Pipeline, All loans/);
    await page.getByLabel('Record type').fill('equipment-loan');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/record_type=equipment-loan/);
    await page.getByRole('status').filter({ hasText: '12 records on this page.' }).waitFor();
    const listed = await page.locator('table.records-table tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-record-id')));
    assert.ok(listed.every((id) => id?.startsWith('demo-loan-')));

    await page.goto(`${suite.service.baseUrl}/app/records?record_type=equipment-lease&view_id=pipelin`);
    const status = page.getByRole('status').filter({ hasText: 'There is no record type' });
    await status.waitFor();
    assert.match(await status.innerText(), /no record type “equipment-lease”[\s\S]*types: equipment-loan[\s\S]*There is no view “pipelin”/);
    assertNoPageErrors(errors);
    await context.close();
  });

  it('a date the API would refuse is explained in plain words; records sort by created and updated time, and the order travels with the pages', async () => {
    const { context, page, errors } = await signedIn();
    await page.goto(`${suite.service.baseUrl}/app/records?created_after=last%20tuesday`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.equal(await alert.innerText(), 'Created after: enter a date such as 2026-12-31, not “last tuesday”.');

    await page.goto(`${suite.service.baseUrl}/app/records?record_type=equipment-loan&limit=5`);
    await page.getByRole('status').filter({ hasText: '5 records on this page.' }).waitFor();
    const ids = () => page.locator('table.records-table tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-record-id')));
    const apiIds = async (query: string) =>
      ((await suite.service.t.as(DEMO_COMPANY_ID, { method: 'GET', url: `/v1/records?${query}` })).json() as { results: { id: string }[] }).results.map(
        (record) => record.id,
      );
    assert.deepEqual(await ids(), await apiIds('record_type=equipment-loan&limit=5'));
    await page.getByLabel('Order').selectOption('-created_at');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/order_by=-created_at/);
    await page.getByRole('status').filter({ hasText: '5 records on this page.' }).waitFor();
    // The API orders the whole list, so the first page holds the newest records of all.
    assert.deepEqual(await ids(), await apiIds('record_type=equipment-loan&limit=5&order_by=-created_at'));
    assert.equal(await page.getByRole('columnheader', { name: 'Created' }).getAttribute('aria-sort'), 'descending');
    assert.match((await page.getByRole('link', { name: 'Next →' }).getAttribute('href')) ?? '', /order_by=-created_at/);

    // A record updated last comes first when ordered by update, newest first.
    const response = await suite.service.t.as(DEMO_COMPANY_ID, { method: 'PATCH', url: '/v1/records/demo-loan-03', payload: { fld_borrower: 'Sorted Ltd' } });
    assert.equal(response.statusCode, 200, response.body);
    await page.getByLabel('Order').selectOption('-updated_at');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/order_by=-updated_at/);
    await page.locator('tr[data-record-id="demo-loan-03"]').waitFor();
    assert.equal((await ids())[0], 'demo-loan-03');
    assert.equal(await page.getByRole('columnheader', { name: 'Updated' }).getAttribute('aria-sort'), 'descending');

    // "← Records" on the record page returns to this list, filters and order kept.
    const listUrl = page.url();
    await page.getByRole('link', { name: 'demo-loan-03' }).click();
    await page.getByRole('heading', { level: 1, name: 'Record demo-loan-03' }).waitFor();
    await page.getByRole('link', { name: '← Records' }).click();
    await page.waitForURL(listUrl);
    assert.equal(await page.getByLabel('Record type').inputValue(), 'equipment-loan');
    assert.equal(await page.getByLabel('Order').inputValue(), '-updated_at');
    assertNoPageErrors(errors, [/400/]);
    await context.close();
  });

  it('every screen shows dates one way, in the reader’s time zone with the zone named', async () => {
    const context = await suite.browser.newContext({ timezoneId: 'America/New_York', locale: 'en-US', viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    await putSession(page, suite.service.baseUrl, await suite.service.demoToken());
    const record = (await suite.service.t.as(DEMO_COMPANY_ID, { method: 'GET', url: '/v1/records/demo-loan-01' })).json() as { created_at: string };
    const expected = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
    }).format(new Date(record.created_at));
    assert.match(expected, /E[SD]T$/);
    await page.goto(`${suite.service.baseUrl}/app/records`);
    assert.equal(await page.locator(`tr[data-record-id="demo-loan-01"] time[datetime="${record.created_at}"]`).first().innerText(), expected);
    const shape = /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2} [AP]M E[SD]T$/;
    for (const [path, selector] of [
      ['/app/events', '.event-results tbody time'],
      ['/app/checks', 'table.checks-table td:nth-child(7) time'],
    ] as const) {
      await page.goto(`${suite.service.baseUrl}${path}`);
      await page.locator(selector).first().waitFor();
      for (const text of await page.locator(selector).allInnerTexts()) assert.match(text, shape, `${path}: ${text}`);
    }
    await context.close();
  });

  it('statuses, sort fields and event types in words; events open newest first and offer the company’s event types with counts', async () => {
    const { context, page, errors } = await signedIn();
    await page.goto(`${suite.service.baseUrl}/app/events`);
    await page.locator('.event-results[aria-busy="false"] tbody tr').first().waitFor();
    assert.equal(await page.getByLabel('Order by').locator('option:checked').innerText(), 'Created');
    assert.equal(await page.getByLabel('Direction').locator('option:checked').innerText(), 'Newest first');
    const times = await page.locator('.event-results tbody time').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('datetime') ?? ''));
    assert.deepEqual(times, [...times].sort().reverse(), 'newest first');
    const answer = (await suite.service.t.as(DEMO_COMPANY_ID, { method: 'GET', url: '/v1/event-types' })).json() as {
      results: { type: string; count: number }[];
    };
    assert.ok(answer.results.length >= 4);
    const offered = await page
      .locator('#event-type-suggestions option')
      .evaluateAll((options) => options.map((option) => [option.getAttribute('value'), option.getAttribute('label')]));
    assert.deepEqual(
      offered,
      answer.results.map((row) => [row.type, `${row.count.toLocaleString('en-US')} event${row.count === 1 ? '' : 's'}`]),
    );
    assert.equal(await page.getByLabel('Order by').locator('option[value="flow_session"]').innerText(), 'Flow session');

    await page.goto(`${suite.service.baseUrl}/app/records/demo-loan-05`);
    await page.getByLabel('Status').waitFor();
    assert.deepEqual(await page.getByLabel('Status').locator('option').allInnerTexts(), ['New', 'In review', 'Approved', 'Funded']);
    assertNoPageErrors(errors);
    await context.close();
  });

  it('"Saved." clears when something else happens; revoking a form link asks first and names the link', async () => {
    const { context, page, errors } = await signedIn();
    await page.goto(`${suite.service.baseUrl}/app/records/demo-loan-06`);
    await page.getByLabel('Borrower').waitFor();
    await page.getByLabel('Borrower').fill('Saved Notice Ltd');
    await page.getByRole('button', { name: 'Save' }).click();
    const saved = page.getByRole('status').filter({ hasText: 'Saved.' });
    await saved.waitFor();
    await page.getByLabel('For (optional)').fill('J. Smith, borrower');
    await page.getByRole('button', { name: 'Create form link' }).click();
    await page.getByText('Form link created.').waitFor();
    assert.equal(await saved.count(), 0, 'the save notice went when the link was created');

    const revoke = page.getByRole('button', { name: /^Revoke the link for J\. Smith, borrower, created .+, expiring .+/ });
    await revoke.click();
    const confirmation = page.getByRole('group', { name: 'Confirm revoking a form link' });
    assert.match(await confirmation.innerText(), /Revoke the form link for J\. Smith, borrower, created .+, expiring .+\?/);
    await assertAccessible(page, 'record page confirming a revoke');
    await confirmation.getByRole('button', { name: 'Keep it' }).click();
    assert.equal(await confirmation.count(), 0);
    const live = await suite.service.t.as(DEMO_COMPANY_ID, { method: 'GET', url: '/v1/records/demo-loan-06/tokens' });
    assert.equal(live.json().count, 1, 'kept: nothing revoked without the confirmation');

    await revoke.click();
    await page.getByRole('button', { name: 'Yes, revoke this link' }).click();
    await page.getByText('Form link revoked').waitFor();
    const after = await suite.service.t.as(DEMO_COMPANY_ID, { method: 'GET', url: '/v1/records/demo-loan-06/tokens' });
    assert.equal(after.json().count, 0);
    assertNoPageErrors(errors);
    await context.close();
  });

  it('the board has no duplicate element IDs; the console has a favicon from its own origin', async () => {
    const { context, page, errors } = await signedIn();
    await page.goto(`${suite.service.baseUrl}/app/`);
    await page.locator('.record-card').first().waitFor();
    const ids = await page.locator('[id]').evaluateAll((nodes) => nodes.map((node) => node.id));
    assert.deepEqual(
      ids.filter((id, index) => ids.indexOf(id) !== index),
      [],
    );
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    assert.ok(icon?.startsWith('/assets/'), `${icon}`);
    const served = await page.request.get(`${suite.service.baseUrl}${icon}`);
    assert.equal(served.status(), 200);
    assert.match(served.headers()['content-type'] ?? '', /image\/svg\+xml/);
    assertNoPageErrors(errors);
    await context.close();
  });
});
