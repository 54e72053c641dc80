import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  assertAccessible,
  assertNoPageErrors,
  DEMO_COMPANY_ID,
  newPage,
  newSignedInPage,
  screenshot,
  browserSuite,
  jumpPastExpiry,
  browserSuiteOf,
} from './harness.js';
import { getRecord, liveTokenKeys, patchRecord } from './record-api.js';

export const recordPageSuite = browserSuiteOf('web console: the record page', (kind, shared) => {
  const suite = browserSuite(kind, { shared });

  const openRecord = async (page: Page, recordId: string) => {
    await page.goto(`${suite.service.baseUrl}/app/records/${recordId}`);
    await page.getByRole('heading', { level: 1, name: `Record ${recordId}` }).waitFor();
    await page.getByLabel('Borrower').waitFor();
  };
  const saved = (page: Page) => page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

  it('edits fields and the status; the change shows through the API', async () => {
    const { context, page, errors } = await newSignedInPage(suite);
    await openRecord(page, 'demo-loan-01');
    assert.deepEqual(await page.getByLabel('Status').locator('option').allInnerTexts(), ['New', 'In review', 'Approved', 'Funded']);
    await page.getByLabel('Borrower').fill('Northwind Holdings');
    await page.getByLabel('First payment').fill('');
    await page.getByLabel('Status').selectOption('approved');
    await page.getByRole('button', { name: 'Save' }).click();
    await saved(page);
    const record = await getRecord(suite.service, 'demo-loan-01');
    assert.equal(record.status, 'approved');
    assert.equal(record.fields.Borrower, 'Northwind Holdings');
    assert.equal(record.fields['First payment'] ?? null, null);
    await assertAccessible(page, 'record page');
    assertNoPageErrors(errors);
    await context.close();
  });

  it('an edit conflict says so; a reload keeps the unsaved edit on top of the new version, and the save then succeeds', async () => {
    const { context, page, errors } = await newSignedInPage(suite);
    await openRecord(page, 'demo-loan-08');
    await patchRecord(suite.service, 'demo-loan-08', { fld_borrower: 'Changed elsewhere' });
    await page.getByLabel('Amount').fill('99999');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'The record changed meanwhile' }).waitFor();
    assert.equal((await getRecord(suite.service, 'demo-loan-08')).fields.Amount, 77_500, 'nothing was saved');
    await assertAccessible(page, 'record page with a conflict');

    await page.getByRole('button', { name: 'Reload the record' }).click();
    await page.getByRole('status').filter({ hasText: 'Loaded the latest version' }).waitFor();
    assert.equal(await page.getByLabel('Borrower').inputValue(), 'Changed elsewhere');
    assert.equal(await page.getByLabel('Amount').inputValue(), '99999');
    await page.getByRole('button', { name: 'Save' }).click();
    await saved(page);
    const fields = (await getRecord(suite.service, 'demo-loan-08')).fields;
    assert.equal(fields.Borrower, 'Changed elsewhere');
    assert.equal(fields.Amount, 99_999);
    assertNoPageErrors(errors, [/412/]);
    await context.close();
  });

  it('mints a form link, copies it, the hosted form saves through it, and revoking it closes it', async () => {
    const { context, page, errors } = await newSignedInPage(suite);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.service.baseUrl });
    await openRecord(page, 'demo-loan-02');
    const keysBefore = await liveTokenKeys(suite.service, 'demo-loan-02');
    await page.getByLabel('Valid for').selectOption({ label: '7 days' });
    await page.getByLabel('For (optional)').fill('J. Smith, borrower');
    await page.getByRole('button', { name: 'Create form link' }).click();
    const linkInput = page.getByLabel(/New form link/);
    await linkInput.waitFor();
    const link = await linkInput.inputValue();
    assert.match(link, new RegExp(`^${suite.service.baseUrl}/forms/#eyJ`));
    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.locator('.minted-link').getByText('Copied.').waitFor();
    assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), link);
    const minted = (await liveTokenKeys(suite.service, 'demo-loan-02')).filter((key) => !keysBefore.includes(key));
    assert.equal(minted.length, 1);
    const key = minted[0]!;
    await page.locator(`tr[data-token-key="${key}"]`).getByText('J. Smith, borrower').waitFor();

    const form = await newPage(suite.browser);
    await form.page.goto(link);
    await form.page.getByLabel('Borrower').fill('Signed through the link');
    await form.page.getByRole('button', { name: 'Save' }).click();
    await saved(form.page);
    assert.equal((await getRecord(suite.service, 'demo-loan-02')).fields.Borrower, 'Signed through the link');

    await page
      .locator(`tr[data-token-key="${key}"]`)
      .getByRole('button', { name: /^Revoke/ })
      .click();
    await page.getByRole('button', { name: 'Yes, revoke this link' }).click();
    await page.getByText('Form link revoked').waitFor();
    await page.locator(`tr[data-token-key="${key}"]`).waitFor({ state: 'detached' });
    assert.ok(!(await liveTokenKeys(suite.service, 'demo-loan-02')).includes(key));
    const closed = await newPage(suite.browser);
    await closed.page.goto(link);
    await closed.page.getByRole('alert').filter({ hasText: 'This link has been withdrawn.' }).waitFor();
    assertNoPageErrors([...errors, ...form.errors, ...closed.errors], [/401/]);
    await Promise.all([form.context.close(), closed.context.close()]);
    await context.close();
  });

  it('creates a PDF from a template, lists it newest first and downloads it with the bearer', async () => {
    // Tall enough for the screenshot to show every panel.
    const { context, page, errors } = await newSignedInPage(suite, { height: 1250 });
    await openRecord(page, 'demo-loan-02');
    // The picker lists the company's templates (GET /v1/templates).
    await page.getByLabel('Template').selectOption('loan-summary');
    await page.getByLabel('File name').fill('loan-02-summary');
    await page.getByRole('button', { name: 'Create PDF' }).click();
    await page.getByText('Created loan-02-summary.pdf.').waitFor();
    const fileButton = page.getByRole('region', { name: 'Files' }).getByRole('button', { name: 'loan-02-summary.pdf' });
    await fileButton.waitFor();
    assert.match(await page.locator('.file-list li').first().innerText(), /loan-02-summary\.pdf[\s\S]*KB · 1 page/);

    const [download] = await Promise.all([page.waitForEvent('download'), fileButton.click()]);
    assert.equal(download.suggestedFilename(), 'loan-02-summary.pdf');
    const path = await download.path();
    const { readFile } = await import('node:fs/promises');
    assert.equal((await readFile(path)).subarray(0, 5).toString('latin1'), '%PDF-');

    await page.getByLabel('Valid for').selectOption({ label: '1 day' });
    await page.getByRole('button', { name: 'Create form link' }).click();
    await page.getByLabel(/New form link/).waitFor();
    await assertAccessible(page, 'record page with a link and a file');
    await screenshot(page, 'record-page');
    assertNoPageErrors(errors);
    await context.close();
  });

  it('deletes a record after a confirmation that names it, then shows the board without it', async () => {
    const { context, page, errors } = await newSignedInPage(suite);
    await openRecord(page, 'demo-loan-03');
    await page.getByRole('button', { name: 'Delete this record' }).click();
    const confirmation = page.getByRole('group', { name: /^Confirm deleting .*demo-loan-03$/ });
    assert.match(await confirmation.innerText(), /Delete .*record demo-loan-03\?/);
    await assertAccessible(page, 'record page asking to confirm a deletion');
    await confirmation.getByRole('button', { name: 'Keep it' }).click();
    await confirmation.waitFor({ state: 'detached' });
    assert.equal((await getRecord(suite.service, 'demo-loan-03')).id, 'demo-loan-03', 'keeping it deletes nothing');

    await page.getByRole('button', { name: 'Delete this record' }).click();
    await confirmation.getByRole('button', { name: 'Yes, delete demo-loan-03' }).click();
    await page.waitForURL(/\/app\/\?type=/);
    await page.getByRole('heading', { level: 1, name: 'Board' }).waitFor();
    await page.locator('article[data-record-id]').first().waitFor();
    assert.equal(await page.locator('article[data-record-id="demo-loan-03"]').count(), 0);
    const gone = await suite.service.t.as(DEMO_COMPANY_ID, { method: 'GET', url: '/v1/records/demo-loan-03' });
    assert.equal(gone.statusCode, 404);
    const filing = await suite.service.t.as(DEMO_COMPANY_ID, { method: 'GET', url: '/v1/records/demo-ucc-3' });
    assert.equal(filing.json().parent_record, null, 'the filing no longer names the deleted loan');
    assertNoPageErrors(errors);
    await context.close();
  });

  it('keeps a record that changed since the page loaded it, and says so', async () => {
    const { context, page, errors } = await newSignedInPage(suite);
    await openRecord(page, 'demo-loan-05');
    await patchRecord(suite.service, 'demo-loan-05', { fld_borrower: 'Changed before the delete' });
    await page.getByRole('button', { name: 'Delete this record' }).click();
    await page.getByRole('button', { name: 'Yes, delete demo-loan-05' }).click();
    await page.getByRole('alert').filter({ hasText: 'The record changed since this page loaded it, so it was not deleted.' }).waitFor();
    assert.equal((await getRecord(suite.service, 'demo-loan-05')).fields.Borrower, 'Changed before the delete');
    assertNoPageErrors(errors, [/412/]);
    await context.close();
  });

  it('a 401 signs the console out with an explanation', async () => {
    const now = suite.service.clock.now();
    const shortLived = await suite.service.t.userToken(DEMO_COMPANY_ID, 'demo-user', { exp: Math.floor(now.getTime() / 1000) + 60 });
    const { context, page, errors } = await newSignedInPage(suite, { clockAt: now, token: shortLived });
    await openRecord(page, 'demo-loan-09');
    await page.getByLabel('Borrower').fill('After expiry');
    await jumpPastExpiry(suite.service, context, shortLived);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your session expired or the token was revoked. Sign in again.').waitFor();
    await page.getByLabel('Bearer token').waitFor();
    assertNoPageErrors(errors, [/401/]);
    await context.close();
  });
});
