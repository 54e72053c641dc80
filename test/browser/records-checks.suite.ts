import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Page } from 'playwright-core';
import { assertAccessible, assertNoPageErrors, DEMO_COMPANY_ID, newSignedInPage, screenshot, browserSuite, browserSuiteOf } from './harness.js';

export const recordsChecksSuite = browserSuiteOf('web console: the records table and the checks', (kind, shared) => {
  const suite = browserSuite(kind, { shared });

  /** The IDs the API itself answers for a query, to compare the page with. */
  async function apiIds(path: string): Promise<string[]> {
    const answer = await suite.service.t.as(DEMO_COMPANY_ID, { method: 'GET', url: path });
    assert.equal(answer.statusCode, 200, answer.body);
    return (answer.json() as { results: { id: string }[] }).results.map((item) => item.id);
  }
  const recordRows = (page: Page) => page.locator('table.records-table tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-record-id')));
  const checkRows = (page: Page) => page.locator('table.checks-table tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-check-id')));

  async function openPage(path: string) {
    const opened = await newSignedInPage(suite);
    // Where the sign-in leads: the board, whose navigation leads on.
    await opened.page.goto(`${suite.service.baseUrl}/app/`);
    await opened.page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: path === '/app/records' ? 'Records' : 'Checks' })
      .click();
    await opened.page
      .getByRole('status')
      .filter({ hasText: /on this page|match/ })
      .waitFor();
    return opened;
  }

  it('lists every record of the company with its type, status, views and fields, linked to the record page', async () => {
    const { context, page, errors } = await openPage('/app/records');
    assert.deepEqual(await recordRows(page), await apiIds('/v1/records'));
    const loan = page.locator('tr[data-record-id="demo-loan-01"]');
    // The rows may come before the record types that name them: wait for the names.
    await loan.filter({ hasText: 'Equipment loan (equipment-loan)' }).waitFor();
    assert.match(
      await loan.innerText(),
      /Equipment loan \(equipment-loan\)[\s\S]*New[\s\S]*Pipeline, All loans[\s\S]*Borrower: Northwind Traders · Amount: 25,000/,
    );
    assert.equal(await loan.getByRole('link', { name: 'demo-loan-01' }).getAttribute('href'), '/app/records/demo-loan-01');
    assert.match(await page.locator('tr[data-record-id="demo-ucc-1"]').innerText(), /uccfiling[\s\S]*Filed[\s\S]*ucc-active[\s\S]*filing_number: 2026-48000/);
    await assertAccessible(page, 'records table');
    await screenshot(page, 'records-table');
    assertNoPageErrors(errors);
    await context.close();
  });

  it('filters by record type, view and one timestamp, keeps the filters in the URL, and pages with Next and Previous', async () => {
    const { context, page, errors } = await openPage('/app/records');
    await page.getByLabel('Record type').fill('uccfiling');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/record_type=uccfiling/);
    await page.getByRole('status').filter({ hasText: '4 records on this page.' }).waitFor();
    assert.deepEqual(await recordRows(page), await apiIds('/v1/records?record_type=uccfiling'));

    await page.getByLabel('Record type').fill('');
    await page.getByLabel('View', { exact: true }).fill('pipeline');
    await page.getByLabel('Records per page').fill('4');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL((url) => url.search === '?view_id=pipeline&limit=4');
    await page.getByRole('status').filter({ hasText: '4 records on this page.' }).waitFor();
    const firstPage = await apiIds('/v1/records?view_id=pipeline&limit=4');
    assert.deepEqual(await recordRows(page), firstPage);
    // The form shows the URL's filters after a reload.
    await page.reload();
    await page.getByRole('status').filter({ hasText: '4 records on this page.' }).waitFor();
    assert.equal(await page.getByLabel('View', { exact: true }).inputValue(), 'pipeline');
    assert.equal(await page.getByLabel('Records per page').inputValue(), '4');

    await page.getByRole('link', { name: 'Next →' }).click();
    await page.waitForURL(/next=demo-loan-06/);
    await page.getByRole('status').filter({ hasText: '2 records on this page.' }).waitFor();
    assert.deepEqual(await recordRows(page), await apiIds(`/v1/records?view_id=pipeline&limit=4&next=${firstPage.at(-1)}`));
    assert.equal(await page.getByRole('link', { name: 'Next →' }).count(), 0, 'nothing lies after the last page');
    await page.getByRole('link', { name: '← Previous' }).click();
    await page.waitForURL(/prev=/);
    await page.getByRole('status').filter({ hasText: '4 records on this page.' }).waitFor();
    assert.deepEqual(await recordRows(page), firstPage);

    // One timestamp filter: records created after the eighth loan.
    const cutoff = ((await suite.service.t.as(DEMO_COMPANY_ID, { method: 'GET', url: '/v1/records/demo-loan-08' })).json() as { created_at: string })
      .created_at;
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.waitForURL((url) => url.search === '');
    await page.getByLabel('Time filter').selectOption('created_after');
    await page.getByLabel('Date', { exact: true }).fill(cutoff);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/created_after=/);
    const expected = await apiIds(`/v1/records?created_after=${encodeURIComponent(cutoff)}`);
    await page
      .getByRole('status')
      .filter({ hasText: `${expected.length} records on this page.` })
      .waitFor();
    assert.deepEqual(await recordRows(page), expected);
    assert.ok(expected.includes('demo-loan-09') && !expected.includes('demo-loan-08'));

    // A timestamp the service refuses is explained.
    await page.getByLabel('Date', { exact: true }).fill('last tuesday');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('alert').filter({ hasText: 'Created after: enter a date such as 2026-12-31' }).waitFor();
    await assertAccessible(page, 'records table with filters');
    assertNoPageErrors(errors, [/400/]);
    await context.close();
  });

  it('lists the mailed checks newest first with amount, recipient and dates, and is accessible', async () => {
    const { context, page, errors } = await openPage('/app/checks');
    await page.getByRole('status').filter({ hasText: '12 checks on this page.' }).waitFor();
    assert.deepEqual(await checkRows(page), await apiIds('/v1/checks'));
    const first = page.locator('tr[data-check-id="chk_de0000000000000b"]');
    assert.match(await first.innerText(), /10011[\s\S]*\$4,741\.95[\s\S]*TAILSPIN TOYS[\s\S]*SAN FRANCISCO, CA[\s\S]*Loan disbursement 12/);
    await assertAccessible(page, 'checks');
    await screenshot(page, 'checks');
    assertNoPageErrors(errors);
    await context.close();
  });

  it('filters checks by mail type, scheduled, date and order, and pages with Next and Previous', async () => {
    const { context, page, errors } = await openPage('/app/checks');
    await page.getByLabel('Mail type').selectOption('ups_next_day_air');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/mail_type=ups_next_day_air/);
    await page.getByRole('status').filter({ hasText: '4 checks on this page.' }).waitFor();
    assert.deepEqual(await checkRows(page), await apiIds('/v1/checks?mail_type=ups_next_day_air'));

    await page.getByLabel('Mail type').selectOption('');
    await page.getByLabel('Scheduled').selectOption('true');
    await page.getByLabel('Order').selectOption('send_date');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL((url) => url.search === '?scheduled=true&sort_by=send_date');
    await page.getByRole('status').filter({ hasText: '3 checks on this page.' }).waitFor();
    assert.deepEqual(await checkRows(page), await apiIds('/v1/checks?scheduled=true&sort_by=send_date'));
    assert.equal(await page.locator('.scheduled-mark').count(), 3);

    const sixth = (
      (await suite.service.t.as(DEMO_COMPANY_ID, { method: 'GET', url: '/v1/checks?sort_by=date_created' })).json() as { results: { date_created: string }[] }
    ).results[5]!.date_created;
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.waitForURL((url) => url.search === '');
    await page.getByLabel('Created: comparison').selectOption('__gte');
    await page.getByLabel('Created: date').fill(sixth);
    await page.getByLabel('Checks per page').fill('4');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/date_created__gte=/);
    const query = `date_created__gte=${encodeURIComponent(sixth)}&limit=4`;
    const firstPage = await apiIds(`/v1/checks?${query}`);
    await page.getByRole('status').filter({ hasText: '4 checks on this page.' }).waitFor();
    assert.deepEqual(await checkRows(page), firstPage);
    await page.getByRole('link', { name: 'Next →' }).click();
    await page.waitForURL(/after=/);
    await page.getByRole('status').filter({ hasText: '3 checks on this page.' }).waitFor();
    const nextUrl = ((await suite.service.t.as(DEMO_COMPANY_ID, { method: 'GET', url: `/v1/checks?${query}` })).json() as { next_url: string }).next_url;
    assert.deepEqual(await checkRows(page), await apiIds(new URL(nextUrl).pathname + new URL(nextUrl).search));
    assert.equal(await page.getByRole('link', { name: 'Next →' }).count(), 0);
    await page.getByRole('link', { name: '← Previous' }).click();
    await page.waitForURL(/before=/);
    await page.getByRole('status').filter({ hasText: '4 checks on this page.' }).waitFor();
    assert.deepEqual(await checkRows(page), firstPage);
    assert.equal(await page.getByLabel('Created: date').inputValue(), sixth, 'the filters travel with the cursor');
    await assertAccessible(page, 'checks with filters');
    assertNoPageErrors(errors);
    await context.close();
  });
});
