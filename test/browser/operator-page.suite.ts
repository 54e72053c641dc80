import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { it } from 'node:test';
import type { Page } from 'playwright-core';
import { TEST_ADMIN_TOKEN } from '../helpers/test-app.js';
import {
  assertAccessible,
  assertNoPageErrors,
  browserSuite,
  DEMO_COMPANY_ID,
  newPage,
  newSignedInPage,
  screenshot,
  signIn,
  browserSuiteOf,
} from './harness.js';

/** pdfme's designer takes a while to draw its first frame in headless Chromium. */
const DESIGNER_TIMEOUT_MS = 40_000;

export const operatorPageSuite = browserSuiteOf('operator page: record types and PDF templates', (kind, shared) => {
  const suite = browserSuite(kind, { shared });
  const adminGet = async (path: string) => {
    const answer = await suite.service.t.admin({ method: 'GET', url: `/admin/v1/companies/${DEMO_COMPANY_ID}${path}` });
    assert.equal(answer.statusCode, 200, answer.body);
    return answer.json();
  };

  const signInAsOperator = async (page: Page) => {
    await page.goto(`${suite.service.baseUrl}/app/operator`);
    await page.getByLabel('Operator token').fill(TEST_ADMIN_TOKEN);
    await page.getByLabel('Company ID').fill(DEMO_COMPANY_ID);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: `Record types of ${DEMO_COMPANY_ID}` }).waitFor();
  };

  it("keeps pdfme's designer out of the staff console, whose script stays under 60 KB compressed", async () => {
    const { context, page } = await newPage(suite.browser);
    const scripts: string[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('.js')) scripts.push(response.url());
    });
    await signIn(page, suite.service.baseUrl, await suite.service.demoToken());
    await page.goto(`${suite.service.baseUrl}/app/records`);
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    let compressed = 0;
    for (const url of new Set(scripts)) {
      assert.doesNotMatch(url, /pdf-designer|clawpdf/, 'the console loads no part of the designer');
      compressed += gzipSync(await (await page.request.get(url)).body()).length;
    }
    assert.ok(compressed > 0 && compressed < 60 * 1024, `the console's script is ${compressed} bytes compressed`);
    await context.close();
  });

  it('tells a company user token from the operator token, and keeps the operator token in this tab only', async () => {
    const { context, page, errors } = await newPage(suite.browser);
    const answer = await page.goto(`${suite.service.baseUrl}/app/operator`);
    const csp = answer!.headers()['content-security-policy'] ?? '';
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /style-src 'self' 'unsafe-inline'/);
    await assertAccessible(page, 'operator sign-in');
    await page.getByLabel('Operator token').fill(await suite.service.demoToken());
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'That is a company user token' }).waitFor();
    await signInAsOperator(page);
    assert.deepEqual(await page.evaluate('Object.keys(sessionStorage).sort()'), ['wrs.operator.company', 'wrs.operator.token']);
    assert.deepEqual(await page.evaluate('Object.keys(localStorage)'), []);
    assertNoPageErrors(errors, [/401/]);
    await context.close();
  });

  it('edits a record type: the API names each problem beside its input, the records it applies to are shown, and it saves', async () => {
    const { context, page, errors } = await newPage(suite.browser, { height: 1300 });
    await signInAsOperator(page);
    await page.getByRole('button', { name: /Equipment loan/ }).click();
    await page.getByRole('heading', { name: /Edit Equipment loan/ }).waitFor();
    const records = await adminGet('/record-types/equipment-loan/records?limit=5');
    assert.ok(records.count >= 12);
    const affected = page.getByTestId('affected-count');
    await affected.filter({ hasText: `${records.count} records follow this type` }).waitFor();
    assert.match(await affected.innerText(), new RegExp(records.results[0].id));

    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByLabel('UID of field 5').fill('fld_borrower');
    await page.getByLabel('Name of field 5').fill('Notes');
    await page.getByRole('button', { name: 'Save record type' }).click();
    await page.getByRole('alert').filter({ hasText: 'Not saved.' }).waitFor();
    const uidInput = page.getByLabel('UID of field 5');
    assert.equal(await uidInput.getAttribute('aria-invalid'), 'true');
    assert.match(await page.locator('[id="fields.4.uid-error"]').innerText(), /duplicate uid 'fld_borrower'/);
    await assertAccessible(page, 'record type editor with problems');

    await uidInput.fill('fld_notes');
    await page.getByRole('button', { name: 'Add status' }).click();
    await page.getByLabel('Status 5').fill('archived');
    await page.getByLabel('Field 4 is required').check();
    await page.getByText('Field Signed becomes required.').waitFor();
    await page.getByLabel('Field 4 is required').uncheck();
    const before = await adminGet('/record-types/equipment-loan');
    await page.getByRole('button', { name: 'Save record type' }).click();
    const savedNotice = page.getByRole('status').filter({ hasText: 'Saved: Equipment loan is at version' });
    await savedNotice.waitFor().catch(async (error) => {
      await screenshot(page, 'operator-record-type-failed');
      throw error;
    });
    const type = await adminGet('/record-types/equipment-loan');
    assert.equal(await savedNotice.innerText(), `Saved: Equipment loan is at version ${type.version}.`);
    assert.equal(type.version, before.version + 1);
    assert.deepEqual(type.fields.at(-1), { uid: 'fld_notes', field_name: 'Notes', type: 'string', required: false });
    assert.equal(type.statuses.at(-1), 'archived');
    await assertAccessible(page, 'record type editor, saved');
    await page.getByRole('heading', { name: /Edit Equipment loan/ }).scrollIntoViewIfNeeded();
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot(page, 'operator-record-type');
    assertNoPageErrors(errors, [/400/]);
    await context.close();
  });

  it('designs a template in pdfme designer with a live preview, and a staff member renders it with a record', async () => {
    const { context, page, errors } = await newPage(suite.browser, { height: 1600 });
    const origins = new Set<string>();
    page.on('request', (request) => origins.add(new URL(request.url()).origin));
    await signInAsOperator(page);
    await page.getByRole('button', { name: 'PDF templates' }).click();
    await page.getByRole('cell', { name: 'loan-summary', exact: true }).waitFor();
    await assertAccessible(page, 'template list');
    await page.getByLabel('New template ID').fill('loan-letter');
    await page.getByRole('button', { name: 'Design', exact: true }).click();
    await page.locator('.designer-frame > *').first().waitFor({ timeout: DESIGNER_TIMEOUT_MS });
    // The preview fills the template with the newest loan, and redraws it.
    const newest = (await adminGet('/record-types/equipment-loan/records?limit=1')).results[0];
    await page.getByRole('region', { name: `Preview filled with record ${newest.id}` }).waitFor();
    await page.locator('.preview-frame > *').first().waitFor({ timeout: DESIGNER_TIMEOUT_MS });
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved: 1 page' }).waitFor();
    const stored = await adminGet('/templates/loan-letter');
    assert.equal(stored.schemas[0][0].name, 'id');
    await screenshot(page, 'operator-template-designer');
    assertNoPageErrors(errors);
    assert.deepEqual([...origins], [suite.service.baseUrl], 'nothing is loaded from another origin');
    await context.close();

    const staff = await newSignedInPage(suite);
    await staff.page.goto(`${suite.service.baseUrl}/app/records/demo-loan-02`);
    await staff.page.getByLabel('Borrower').waitFor();
    await staff.page.getByLabel('Template').selectOption('loan-letter');
    await staff.page.getByLabel('File name').fill('loan-02-letter');
    await staff.page.getByRole('button', { name: 'Create PDF' }).click();
    await staff.page.getByText('Created loan-02-letter.pdf.').waitFor();
    const fileButton = staff.page.getByRole('region', { name: 'Files' }).getByRole('button', { name: 'loan-02-letter.pdf' });
    const [download] = await Promise.all([staff.page.waitForEvent('download'), fileButton.click()]);
    const bytes = await readFile(await download.path());
    assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
    assertNoPageErrors(staff.errors);
    await staff.context.close();
  });
});
