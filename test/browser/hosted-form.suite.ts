import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Page } from 'playwright-core';
import { assertAccessible, assertNoPageErrors, newPage, browserSuite, jumpPastExpiry, browserSuiteOf } from './harness.js';
import { deleteRecordRow, getRecord, mintRecordToken, putLoanType, replaceLoanType, revokeRecordToken } from './record-api.js';

export const hostedFormSuite = browserSuiteOf('hosted record form (/forms/#<record token>)', (kind, shared) => {
  const suite = browserSuite(kind, { shared });

  const openForm = async (page: Page, token: string) => {
    await page.goto(`${suite.service.baseUrl}/forms/#${token}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
  };
  const formLoaded = (page: Page) => page.getByLabel('Borrower').waitFor();
  const alert = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text });

  it('at phone width, by keyboard: the link opens its record, the token leaves the address bar, and a save shows through the API', async () => {
    const { token } = await mintRecordToken(suite.service, 'demo-loan-02');
    const { context, page, errors } = await newPage(suite.browser, { width: 375, height: 780 });
    await openForm(page, token);
    await formLoaded(page);
    assert.equal(new URL(page.url()).hash, '', 'the token is no longer in the address bar');
    assert.ok(!page.url().includes('eyJ'));
    await page.getByRole('heading', { level: 1, name: 'Equipment loan' }).waitFor();
    assert.doesNotMatch(await page.locator('main').innerText(), /demo-loan-02|equipment-loan/, 'no internal ID is shown');
    assert.equal(await page.getByLabel('Borrower').getAttribute('aria-required'), 'true');
    assert.equal(await page.getByLabel('Borrower').inputValue(), 'Contoso Ltd');

    // Keyboard only: type into the first field, tab through the others, Enter submits.
    await page.getByLabel('Borrower').focus();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Contoso Capital');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('41250.5');
    await page.keyboard.press('Tab');
    await page.getByLabel('First payment').fill('2027-03-01');
    await page.getByLabel('Signed').focus();
    await page.keyboard.press('Space');
    await page.getByLabel('Borrower').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const fields = (await getRecord(suite.service, 'demo-loan-02')).fields;
    assert.deepEqual(fields, { Borrower: 'Contoso Capital', Amount: 41250.5, 'First payment': '2027-03-01', Signed: true });

    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    assert.ok(overflow <= 0, 'nothing scrolls sideways at 375px');
    await assertAccessible(page, 'hosted form at phone width');

    // A reload of the tab still opens the record: the token moved to sessionStorage.
    await page.reload();
    await formLoaded(page);
    assert.equal(await page.getByLabel('Borrower').inputValue(), 'Contoso Capital');
    assertNoPageErrors(errors);
    await context.close();
  });

  it("a narrowed link shows the form's title and instructions, only its visible fields, read-only ones as such, and the status only when it may change", async () => {
    const original = await replaceLoanType(suite.service, (type) => ({
      ...type,
      form: {
        title: 'Equipment loan application',
        instructions: 'Check your company name and enter the amount you need.',
        fields: [{ uid: 'fld_borrower', editable: false }, { uid: 'fld_amount' }, { uid: 'fld_first_payment' }, { uid: 'fld_signed' }],
        status_editable: true,
      },
    }));
    try {
      // The mint hides the signature from this link.
      const { token } = await mintRecordToken(suite.service, 'demo-loan-11', 3600, {
        fields: ['fld_borrower', 'fld_amount', 'fld_first_payment'],
        label: 'sent to the borrower',
      });
      const before = await getRecord(suite.service, 'demo-loan-11');
      const { context, page, errors } = await newPage(suite.browser, { width: 390, height: 844 });
      await page.goto(`${suite.service.baseUrl}/forms/#${token}`);
      await page.getByRole('heading', { level: 1, name: 'Equipment loan application' }).waitFor();
      await formLoaded(page);
      assert.match(await page.locator('main').innerText(), /Check your company name and enter the amount you need\./);
      assert.equal(await page.getByLabel('Borrower').getAttribute('readonly'), '');
      assert.equal(await page.getByLabel('Signed').count(), 0, 'the hidden field is not shown');
      await page.getByLabel('Amount').fill('9999');
      await page.getByLabel('Status').selectOption('funded');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      const after = await getRecord(suite.service, 'demo-loan-11');
      assert.equal(after.status, 'funded');
      assert.deepEqual(after.fields, { ...before.fields, Amount: 9999 });
      await assertAccessible(page, 'hosted form of a narrowed link');
      assertNoPageErrors(errors);
      await context.close();

      // The same type, a link that may not set the status: no status control, the status is shown.
      const { token: noStatus } = await mintRecordToken(suite.service, 'demo-loan-11', 3600, { status_editable: false });
      const second = await newPage(suite.browser);
      await second.page.goto(`${suite.service.baseUrl}/forms/#${noStatus}`);
      await formLoaded(second.page);
      assert.equal(await second.page.getByRole('combobox', { name: 'Status' }).count(), 0);
      assert.equal(await second.page.getByLabel('Signed').count(), 1);
      assertNoPageErrors(second.errors);
      await second.context.close();
    } finally {
      await putLoanType(suite.service, original);
    }
  });

  it('an unparseable number and an emptied required field are explained beside the fields, and nothing is sent', async () => {
    const { token } = await mintRecordToken(suite.service, 'demo-loan-03');
    const before = await getRecord(suite.service, 'demo-loan-03');
    const { context, page, errors } = await newPage(suite.browser);
    await openForm(page, token);
    await formLoaded(page);
    await page.getByLabel('Amount').fill('12,5 thousand');
    await page.getByLabel('Borrower').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await alert(page, 'Nothing was sent').waitFor();
    const amount = page.getByLabel('Amount');
    assert.equal(await amount.getAttribute('aria-invalid'), 'true');
    const describedBy = await amount.getAttribute('aria-describedby');
    assert.match(await page.locator(`#${describedBy}`).innerText(), /Enter a number/);
    assert.match(await page.locator(`#${await page.getByLabel('Borrower').getAttribute('aria-describedby')}`).innerText(), /required/);
    assert.equal(await amount.inputValue(), '12,5 thousand', 'what was typed stays');
    await assertAccessible(page, 'hosted form with field errors');
    assert.deepEqual((await getRecord(suite.service, 'demo-loan-03')).fields, before.fields);
    assertNoPageErrors(errors);
    await context.close();
  });

  it('no token or a malformed token: "this link is not valid"', async () => {
    const { context, page, errors } = await newPage(suite.browser);
    for (const fragment of ['', '#not-a-token', '#eyJhbGciOiJIUzI1NiJ9.e30.c2ln']) {
      await page.evaluate('sessionStorage.clear()').catch(() => undefined);
      await page.goto(`${suite.service.baseUrl}/forms/${fragment}`);
      await alert(page, 'This link is not valid.').waitFor();
      assert.equal(await page.getByLabel('Borrower').count(), 0);
    }
    await assertAccessible(page, 'hosted form, invalid link');
    assertNoPageErrors(errors);
    await context.close();
  });

  it('an expired link says so, both when opened and when the token expires while the form is open (values kept)', async () => {
    const { token } = await mintRecordToken(suite.service, 'demo-loan-04', 60);
    const { context, page, errors } = await newPage(suite.browser, { clockAt: suite.service.clock.now() });
    await openForm(page, token);
    await formLoaded(page);
    await page.getByLabel('Borrower').fill('Typed before expiry');
    await jumpPastExpiry(suite.service, context, token);
    await page.getByRole('button', { name: 'Save' }).click();
    await alert(page, 'This link has expired.').waitFor();
    assert.equal(await page.getByLabel('Borrower').inputValue(), 'Typed before expiry');
    assert.ok(await page.getByRole('button', { name: 'Save' }).isDisabled());

    const second = await newPage(suite.browser, { clockAt: suite.service.clock.now() });
    await openForm(second.page, token);
    await alert(second.page, 'This link has expired.').waitFor();
    assert.equal(await second.page.getByLabel('Borrower').count(), 0);
    assertNoPageErrors([...errors, ...second.errors], [/401/]);
    await second.context.close();
    await context.close();
  });

  it('a revoked link says it was withdrawn, when opened and at save (values kept)', async () => {
    const { token, key } = await mintRecordToken(suite.service, 'demo-loan-05');
    const { context, page, errors } = await newPage(suite.browser);
    await openForm(page, token);
    await formLoaded(page);
    await revokeRecordToken(suite.service, 'demo-loan-05', key);
    await page.getByLabel('Borrower').fill('Typed before revocation');
    await page.getByRole('button', { name: 'Save' }).click();
    await alert(page, 'This link has been withdrawn.').waitFor();
    assert.equal(await page.getByLabel('Borrower').inputValue(), 'Typed before revocation');

    const second = await newPage(suite.browser);
    await openForm(second.page, token);
    await alert(second.page, 'This link has been withdrawn.').waitFor();
    await assertAccessible(second.page, 'hosted form, revoked link');
    assertNoPageErrors([...errors, ...second.errors], [/401/]);
    await second.context.close();
    await context.close();
  });

  it('a network failure mid-submit keeps the typed values and says so; saving again works', async () => {
    const { token } = await mintRecordToken(suite.service, 'demo-loan-06');
    const { context, page, errors } = await newPage(suite.browser);
    await openForm(page, token);
    await formLoaded(page);
    await page.route('**/v1/records/**', (route) => (route.request().method() === 'PATCH' ? route.abort('connectionreset') : route.continue()));
    await page.getByLabel('Borrower').fill('Offline Borrower');
    await page.getByLabel('Amount').fill('77000');
    await page.getByRole('button', { name: 'Save' }).click();
    await alert(page, 'the service could not be reached').waitFor();
    assert.equal(await page.getByLabel('Borrower').inputValue(), 'Offline Borrower');
    assert.equal(await page.getByLabel('Amount').inputValue(), '77000');
    assert.notEqual((await getRecord(suite.service, 'demo-loan-06')).fields.Borrower, 'Offline Borrower');

    await page.unroute('**/v1/records/**');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const fields = (await getRecord(suite.service, 'demo-loan-06')).fields;
    assert.equal(fields.Borrower, 'Offline Borrower');
    assert.equal(fields.Amount, 77000);
    assertNoPageErrors(errors, [/ERR_CONNECTION_RESET|net::/]);
    await context.close();
  });

  it('a field the record type no longer has is explained beside it; values stay; a reload continues with the current fields', async () => {
    const { token } = await mintRecordToken(suite.service, 'demo-loan-07');
    const { context, page, errors } = await newPage(suite.browser);
    await openForm(page, token);
    await formLoaded(page);
    const original = await replaceLoanType(suite.service, (type) => ({ ...type, fields: type.fields.filter((field) => field.uid !== 'fld_signed') }));
    try {
      const signedBefore = await page.getByLabel('Signed').isChecked();
      await page.getByLabel('Signed').setChecked(!signedBefore);
      await page.getByLabel('Borrower').fill('Kept Borrower');
      await page.getByRole('button', { name: 'Save' }).click();
      await alert(page, "The record's type changed").waitFor();
      const signed = page.getByLabel('Signed');
      assert.equal(await signed.getAttribute('aria-invalid'), 'true');
      assert.match(await page.locator(`#${await signed.getAttribute('aria-describedby')}`).innerText(), /not part of the record type/);
      assert.equal(await signed.isChecked(), !signedBefore);
      assert.equal(await page.getByLabel('Borrower').inputValue(), 'Kept Borrower');
      await assertAccessible(page, 'hosted form, field no longer in the type');

      await page.getByRole('button', { name: 'Reload the record' }).click();
      await page.getByLabel('Signed').waitFor({ state: 'detached' });
      assert.equal(await page.getByLabel('Borrower').inputValue(), 'Kept Borrower');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      assert.equal((await getRecord(suite.service, 'demo-loan-07')).fields.Borrower, 'Kept Borrower');
    } finally {
      await putLoanType(suite.service, original);
    }
    assertNoPageErrors(errors, [/400/]);
    await context.close();
  });

  it('a record deleted after the form opened: the save says so and keeps the values', async () => {
    const { token } = await mintRecordToken(suite.service, 'demo-loan-12');
    const { context, page, errors } = await newPage(suite.browser);
    await openForm(page, token);
    await formLoaded(page);
    await deleteRecordRow(suite.service, 'demo-loan-12');
    await page.getByLabel('Borrower').fill('Too late');
    await page.getByRole('button', { name: 'Save' }).click();
    await alert(page, 'This record no longer exists').waitFor();
    assert.equal(await page.getByLabel('Borrower').inputValue(), 'Too late');

    const second = await newPage(suite.browser);
    await openForm(second.page, token);
    await alert(second.page, 'This record was not found').waitFor();
    assertNoPageErrors([...errors, ...second.errors], [/404/]);
    await second.context.close();
    await context.close();
  });
});
