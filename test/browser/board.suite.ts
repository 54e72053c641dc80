import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Page } from 'playwright-core';
import { assertAccessible, assertNoPageErrors, DEMO_COMPANY_ID, newSignedInPage, screenshot, browserSuite, browserSuiteOf } from './harness.js';

export const boardSuite = browserSuiteOf('web console: the board', (kind, shared) => {
  const suite = browserSuite(kind, { shared });

  const statusOf = async (id: string): Promise<string> => {
    const answer = await suite.service.t.as(DEMO_COMPANY_ID, { method: 'GET', url: `/v1/records/${id}` });
    assert.equal(answer.statusCode, 200);
    return (answer.json() as { status: string }).status;
  };
  const card = (page: Page, viewId: string, recordId: string) => page.locator(`[data-view-id="${viewId}"] article[data-record-id="${recordId}"]`);
  const zone = (page: Page, viewId: string, status: string) => page.locator(`[data-view-id="${viewId}"] section[data-status="${status}"]`);
  // A zone's heading: always at its top, so in view when the drag starts (dragTo scrolls the
  // target into view only after pressing on the source, which would then press on another card).
  const dropTarget = (page: Page, viewId: string, status: string) => zone(page, viewId, status).locator('h3');

  async function openBoard(path = '/app/') {
    const opened = await newSignedInPage(suite);
    await opened.page.goto(`${suite.service.baseUrl}${path}`);
    await opened.page.getByRole('heading', { name: /^Pipeline/ }).waitFor();
    await card(opened.page, 'all-loans', 'demo-loan-12').waitFor();
    return opened;
  }

  it('shows a column per view of the demo loan type, cards grouped by status, and is accessible', async () => {
    const { context, page, errors } = await openBoard();
    assert.equal(await page.getByLabel('Record type').inputValue(), 'equipment-loan');
    const columns = await page.locator('.view-column h2').allInnerTexts();
    assert.deepEqual(columns, ['Pipeline (6)', 'Approved (6)', 'All loans (12)']);
    assert.deepEqual(
      await page.locator('[data-view-id="pipeline"] section[data-status]').evaluateAll((zones) => zones.map((z) => z.getAttribute('data-status'))),
      ['new', 'in_review'],
    );
    assert.deepEqual(
      await page.locator('[data-view-id="all-loans"] section[data-status]').evaluateAll((zones) => zones.map((z) => z.getAttribute('data-status'))),
      ['new', 'in_review', 'approved', 'funded'],
    );
    assert.equal(await zone(page, 'pipeline', 'new').locator('article').count(), 3);
    const first = card(page, 'pipeline', 'demo-loan-01');
    assert.match(await first.innerText(), /demo-loan-01[\s\S]*New[\s\S]*Borrower[\s\S]*Northwind Traders[\s\S]*Amount[\s\S]*25,000/);
    assert.equal(await first.getByRole('link', { name: 'demo-loan-01' }).getAttribute('href'), '/app/records/demo-loan-01');
    // UCC filings and leased assets are other record types: not on this board.
    assert.equal(await page.locator('article[data-record-id^="demo-ucc"], article[data-record-id^="demo-asset"]').count(), 0);
    await assertAccessible(page, 'board');
    await screenshot(page, 'board');
    assertNoPageErrors(errors);
    await context.close();
  });

  it('keeps the chosen record type in the URL and says when the asked-for type does not exist', async () => {
    const { context, page, errors } = await openBoard('/app/?type=no-such-type');
    await page.getByText('There is no record type “no-such-type”').waitFor();
    await page.getByLabel('Record type').selectOption('equipment-loan');
    await page.waitForURL(/\/app\/\?type=equipment-loan$/);
    await page.reload();
    await page.getByRole('heading', { name: /^Pipeline/ }).waitFor();
    assert.equal(await page.getByLabel('Record type').inputValue(), 'equipment-loan');
    assert.equal(await page.getByText('There is no record type').count(), 0);
    assertNoPageErrors(errors);
    await context.close();
  });

  it('moves a card by drag and drop onto a status zone: the record changes status and the move is announced', async () => {
    const { context, page, errors } = await openBoard();
    assert.equal(await statusOf('demo-loan-01'), 'new');
    await card(page, 'pipeline', 'demo-loan-01').dragTo(dropTarget(page, 'pipeline', 'in_review'));
    await page.getByRole('status').filter({ hasText: 'Moved demo-loan-01 from New to In review.' }).waitFor();
    assert.equal(await statusOf('demo-loan-01'), 'in_review');
    // The board was reloaded: the card now sits in its new status, in every view that holds it.
    await zone(page, 'pipeline', 'in_review').locator('article[data-record-id="demo-loan-01"]').waitFor();
    await zone(page, 'all-loans', 'in_review').locator('article[data-record-id="demo-loan-01"]').waitFor();
    assert.equal(await zone(page, 'pipeline', 'new').locator('article[data-record-id="demo-loan-01"]').count(), 0);

    // Across views: from the pipeline onto the Approved column's funded zone.
    await card(page, 'pipeline', 'demo-loan-05').dragTo(dropTarget(page, 'approved', 'funded'));
    await page.getByRole('status').filter({ hasText: 'Moved demo-loan-05 from New to Funded.' }).waitFor();
    assert.equal(await statusOf('demo-loan-05'), 'funded');
    await card(page, 'approved', 'demo-loan-05').waitFor();
    assertNoPageErrors(errors);
    await context.close();
  });

  it('moves a card with the keyboard through its Move to menu; focus follows the card', async () => {
    const { context, page, errors } = await openBoard();
    assert.equal(await statusOf('demo-loan-02'), 'in_review');
    const menu = card(page, 'pipeline', 'demo-loan-02').locator('summary');
    await menu.focus();
    await page.keyboard.press('Enter');
    const approve = card(page, 'pipeline', 'demo-loan-02').getByRole('button', { name: 'Approved' });
    await approve.waitFor();
    await page.keyboard.press('Tab'); // New
    await page.keyboard.press('Tab'); // Approved
    assert.equal(await approve.evaluate((button) => button.matches(':focus')), true);
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Moved demo-loan-02 from In review to Approved.' }).waitFor();
    assert.equal(await statusOf('demo-loan-02'), 'approved');
    const moved = card(page, 'approved', 'demo-loan-02');
    await moved.waitFor();
    await moved.locator('summary:focus').waitFor();
    assertNoPageErrors(errors);
    await context.close();
  });

  it('a change by someone else between the page reading the record and its PATCH is a 412: the page says so and reloads', async () => {
    const { context, page, errors } = await openBoard();
    let intercepted = 0;
    await page.route('**/v1/records/demo-loan-09', async (route) => {
      if (route.request().method() !== 'PATCH') return route.continue();
      intercepted += 1;
      // Someone else changes the record after the page read its ETag, before the PATCH lands.
      const other = await suite.service.t.as(DEMO_COMPANY_ID, { method: 'PATCH', url: '/v1/records/demo-loan-09', payload: { status: 'in_review' } });
      assert.equal(other.statusCode, 200);
      await route.continue();
    });
    assert.equal(await statusOf('demo-loan-09'), 'new');
    await card(page, 'pipeline', 'demo-loan-09').dragTo(dropTarget(page, 'approved', 'approved'));
    await page.getByRole('alert').filter({ hasText: 'demo-loan-09 was changed by someone else meanwhile; the board was reloaded.' }).waitFor();
    assert.equal(intercepted, 1);
    assert.equal(await statusOf('demo-loan-09'), 'in_review', 'the PATCH with the stale ETag changed nothing');
    // Reloaded: the card shows the other person's change.
    await zone(page, 'pipeline', 'in_review').locator('article[data-record-id="demo-loan-09"]').waitFor();
    assertNoPageErrors(errors, [/412/]);
    await context.close();
  });

  it('a card the board shows out of date is not moved: the record changed since the board loaded', async () => {
    const { context, page, errors } = await openBoard();
    const other = await suite.service.t.as(DEMO_COMPANY_ID, { method: 'PATCH', url: '/v1/records/demo-loan-06', payload: { fld_signed: true } });
    assert.equal(other.statusCode, 200);
    let patches = 0;
    page.on('request', (request) => {
      if (request.method() === 'PATCH') patches += 1;
    });
    await card(page, 'pipeline', 'demo-loan-06').locator('summary').click();
    await card(page, 'pipeline', 'demo-loan-06').getByRole('button', { name: 'Funded' }).click();
    await page.getByRole('alert').filter({ hasText: 'demo-loan-06 was changed by someone else meanwhile' }).waitFor();
    assert.equal(patches, 0);
    assert.equal(await statusOf('demo-loan-06'), 'in_review');
    assertNoPageErrors(errors);
    await context.close();
  });

  it('a 401 (the token revoked or expired) signs out with the reason', async () => {
    const { context, page } = await openBoard();
    await page.route('**/v1/records?**', (route) =>
      route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ message: 'token revoked', code: 'unauthorized' }) }),
    );
    await card(page, 'pipeline', 'demo-loan-10').locator('summary').click();
    await page.route('**/v1/records/demo-loan-10', (route) =>
      route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ message: 'token revoked', code: 'unauthorized' }) }),
    );
    await card(page, 'pipeline', 'demo-loan-10').getByRole('button', { name: 'New' }).click();
    await page.getByText('Your session expired or the token was revoked. Sign in again.').waitFor();
    await page.getByLabel('Bearer token').waitFor();
    await context.close();
  });
  it('a view of more than a page of records shows the first hundred and loads the rest on demand; another type is chosen in the select', async () => {
    const type = {
      name: 'Warehouse lease',
      fields: [{ uid: 'fld_site', field_name: 'Site', type: 'string', required: true }],
      statuses: ['open', 'closed'],
      views: [{ id: 'leases', name: 'Leases', statuses: [] }],
    };
    assert.equal(
      (await suite.service.t.admin({ method: 'PUT', url: `/admin/v1/companies/${DEMO_COMPANY_ID}/record-types/warehouse-lease`, payload: type })).statusCode,
      201,
    );
    const leases = Array.from({ length: 105 }, (_, i) => ({
      id: `lease-${String(i + 1).padStart(3, '0')}`,
      record_type: 'custom',
      uid: 'warehouse-lease',
      status: 'open',
      child_records: [],
      fields: { Site: `Site ${i + 1}` },
    }));
    const imported = await suite.service.t.admin({ method: 'POST', url: `/admin/v1/companies/${DEMO_COMPANY_ID}/records`, payload: leases });
    assert.equal(imported.statusCode, 201, imported.body);

    const { context, page, errors } = await openBoard();
    await page.getByLabel('Record type').selectOption('warehouse-lease');
    await page.waitForURL(/\?type=warehouse-lease$/);
    await page.getByRole('heading', { name: 'Leases (100+)' }).waitFor();
    assert.equal(await page.locator('[data-view-id="leases"] article').count(), 100);
    await page.getByRole('button', { name: 'Load more of Leases' }).click();
    await page.getByRole('heading', { name: 'Leases (105)' }).waitFor();
    assert.equal(await page.locator('[data-view-id="leases"] article').count(), 105);
    assert.equal(await page.getByRole('button', { name: 'Load more of Leases' }).count(), 0);
    assert.match(await card(page, 'leases', 'lease-105').innerText(), /Site[\s\S]*Site 105/);
    assertNoPageErrors(errors);
    await context.close();
  });
});
