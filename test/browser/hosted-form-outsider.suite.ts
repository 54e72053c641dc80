// The hosted form as an outsider meets it: the company's name and the form's title, no internal
// IDs or raw status words, touch sizes on a phone, numbers in the reader's locale, and links
// that are not form links told apart from withdrawn ones.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible, assertNoPageErrors, browserSuite, DEMO_COMPANY_ID, newPage, screenshot, browserSuiteOf } from './harness.js';
import { getRecord, mintRecordToken, patchRecord, replaceLoanType } from './record-api.js';

const PROFILE = { display_name: 'Acme Equipment Finance', support_email: 'loans@acme.example' };
const HEADING = 'Acme Equipment Finance asks you to complete: Equipment loan';

/** A page whose browser writes numbers the way of `locale` (navigator.language and Intl alike). */
async function pageInLocale(browser: Browser, locale: string): Promise<{ page: Page; close(): Promise<void> }> {
  const context = await browser.newContext({ locale, viewport: { width: 390, height: 844 } });
  return { page: await context.newPage(), close: () => context.close() };
}

/** Sizes the page lays out: each input's text size and height, and the checkbox's box. */
const sizesOf = (page: Page) =>
  page.evaluate(`(() => {
    const box = (element) => element.getBoundingClientRect();
    const inputs = [...document.querySelectorAll('.record-form input:not([type=checkbox]), .record-form select')].map((element) => ({
      name: element.name, fontPx: parseFloat(getComputedStyle(element).fontSize), height: box(element).height,
    }));
    const checkbox = document.querySelector('.record-form input[type=checkbox]');
    return { inputs, checkbox: checkbox && { width: box(checkbox).width, height: box(checkbox).height } };
  })()`) as Promise<{ inputs: { name: string; fontPx: number; height: number }[]; checkbox: { width: number; height: number } | null }>;

export const hostedFormOutsiderSuite = browserSuiteOf('hosted form for outsiders', (kind, shared) => {
  const suite = browserSuite(kind, { shared });

  const setUp = async () => {
    const profile = await suite.service.t.admin({ method: 'PATCH', url: `/admin/v1/companies/${DEMO_COMPANY_ID}/profile`, payload: PROFILE });
    assert.equal(profile.statusCode, 200, profile.body);
    await replaceLoanType(suite.service, (type) => ({
      ...type,
      form: {
        title: 'Equipment loan',
        instructions: 'Check the amount you need and sign.',
        fields: [{ uid: 'fld_borrower', editable: false }, { uid: 'fld_amount' }, { uid: 'fld_first_payment' }, { uid: 'fld_signed' }],
      },
    }));
  };

  for (const [device, viewport] of [
    ['a desktop', { width: 1280, height: 860 }],
    ['a 390x844 phone', { width: 390, height: 844 }],
  ] as const) {
    it(`on ${device}, a narrowed link names the company and the form, shows no IDs or raw statuses, and saves what it shows`, async () => {
      await setUp();
      const recordId = viewport.width > 600 ? 'demo-loan-08' : 'demo-loan-09';
      await patchRecord(suite.service, recordId, { status: 'in_review' });
      const { token } = await mintRecordToken(suite.service, recordId, 3600, {
        fields: ['fld_borrower', 'fld_amount', 'fld_signed'],
        label: 'sent to the borrower',
      });
      const { context, page, errors } = await newPage(suite.browser, viewport);
      await page.goto(`${suite.service.baseUrl}/forms/#${token}`);
      await page.getByRole('heading', { level: 1, name: HEADING }).waitFor();
      await page.getByLabel('Amount').waitFor();
      assert.equal(await page.title(), 'Equipment loan · Acme Equipment Finance');
      const text = await page.locator('main').innerText();
      assert.doesNotMatch(text, new RegExp(`${recordId}|equipment-loan|in_review|fld_|${DEMO_COMPANY_ID}`), 'no internal ID or raw status word');
      assert.match(text, /Status\s*In review/);
      assert.match(text, /Check the amount you need and sign\./);
      assert.equal(await page.getByLabel('First payment').count(), 0, 'the field the link hides is not shown');
      assert.equal(await page.getByRole('link', { name: PROFILE.support_email }).getAttribute('href'), `mailto:${PROFILE.support_email}`);
      await assertAccessible(page, `hosted form on ${device}`);

      const sizes = await sizesOf(page);
      for (const input of sizes.inputs) {
        assert.ok(input.fontPx >= 16, `${input.name}: text of ${input.fontPx}px`);
        assert.ok(input.height >= 44, `${input.name}: ${input.height}px tall`);
      }
      if (viewport.width < 600) {
        assert.ok(sizes.checkbox && sizes.checkbox.width >= 44 && sizes.checkbox.height >= 44, `checkbox ${JSON.stringify(sizes.checkbox)}`);
        const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
        assert.ok(overflow <= 0, 'nothing scrolls sideways at 390px');
      }

      await page.getByLabel('Amount').fill('1,250.50');
      await page.getByText('Will be saved as 1,250.5').waitFor();
      await page.getByLabel('Signed').check();
      await screenshot(page, viewport.width > 600 ? 'hosted-form-desktop' : 'hosted-form');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await assertAccessible(page, `hosted form on ${device}, saved`);
      const saved = await getRecord(suite.service, recordId);
      assert.equal(saved.fields.Amount, 1250.5);
      assert.equal(saved.fields.Signed, true);
      assert.equal(saved.status, 'in_review');
      assertNoPageErrors(errors);
      await context.close();
    });
  }

  it('reads numbers as the locale writes them, shows what will be saved, and refuses what the locale would not write', async () => {
    await setUp();
    const { token } = await mintRecordToken(suite.service, 'demo-loan-10');
    await patchRecord(suite.service, 'demo-loan-10', { fld_amount: 98765.25 });

    const french = await pageInLocale(suite.browser, 'fr-FR');
    await french.page.goto(`${suite.service.baseUrl}/forms/#${token}`);
    const amount = french.page.getByLabel('Amount');
    await amount.waitFor();
    assert.equal(await amount.inputValue(), '98765,25', 'the stored number shows with the decimal comma');
    await amount.fill('1 250,50');
    await french.page.getByText(/Will be saved as 1\s250,5$/).waitFor();
    await french.page
      .getByRole('button', { name: 'Enregistrer' })
      .or(french.page.getByRole('button', { name: 'Save' }))
      .click();
    await french.page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    assert.equal((await getRecord(suite.service, 'demo-loan-10')).fields.Amount, 1250.5);
    await french.close();

    const german = await pageInLocale(suite.browser, 'de-DE');
    await german.page.goto(`${suite.service.baseUrl}/forms/#${token}`);
    const gAmount = german.page.getByLabel('Amount');
    await gAmount.waitFor();
    await gAmount.fill('1.5');
    assert.equal(await german.page.getByText(/Will be saved as/).count(), 0, 'no number yet: 1.5 is no way to write one in de-DE');
    await german.page.getByRole('button', { name: 'Save' }).click();
    await german.page.getByRole('alert').filter({ hasText: 'Nothing was sent' }).waitFor();
    assert.match(await german.page.locator(`#${await gAmount.getAttribute('aria-describedby')}`).innerText(), /Enter a number, such as 1\.250,5/);
    await assertAccessible(german.page, 'hosted form, a number the locale does not write');
    await gAmount.fill('12.345,6');
    await german.page.getByText('Will be saved as 12.345,6').waitFor();
    await german.page.getByRole('button', { name: 'Save' }).click();
    await german.page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    assert.equal((await getRecord(suite.service, 'demo-loan-10')).fields.Amount, 12345.6);
    await german.close();
  });

  it('a link whose signature is bad is not valid (not "withdrawn"); a staff token pasted in is not a form link', async () => {
    const { token } = await mintRecordToken(suite.service, 'demo-loan-07');
    const [head, payload, signature] = token.split('.');
    const forged = `${head}.${payload}.${signature!.slice(0, -4)}${signature!.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    const { context, page, errors } = await newPage(suite.browser, { width: 390, height: 844 });
    await page.goto(`${suite.service.baseUrl}/forms/#${forged}`);
    const refusal = page.getByRole('alert');
    await refusal.filter({ hasText: 'This link is not valid.' }).waitFor();
    assert.match(await refusal.innerText(), /could not be verified/);
    assert.doesNotMatch(await refusal.innerText(), /withdr|revoked/i);
    assert.equal(await page.getByLabel('Amount').count(), 0);
    await assertAccessible(page, 'hosted form, badly signed link');

    assertNoPageErrors(errors, [/401/]);
    await context.close();

    const staff = await newPage(suite.browser, { width: 390, height: 844 });
    await staff.page.goto(`${suite.service.baseUrl}/forms/#${await suite.service.demoToken()}`);
    await staff.page.getByRole('alert').filter({ hasText: 'This is not a form link.' }).waitFor();
    assert.match(await staff.page.getByRole('alert').innerText(), /sign-in token for the console/);
    await assertAccessible(staff.page, 'hosted form, a staff token');
    assertNoPageErrors(staff.errors);
    await staff.context.close();
  });
});
