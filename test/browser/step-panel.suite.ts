import assert from 'node:assert/strict';
import { it } from 'node:test';
import { wordCountStep } from '../steps/word-count-step.js';
import { assertAccessible, assertNoPageErrors, newSignedInPage, browserSuite, browserSuiteOf } from './harness.js';

export const stepPanelSuite = browserSuiteOf('web console: a step type from the registry', (kind, shared) => {
  const suite = browserSuite(kind, { shared, context: { stepTypes: [wordCountStep] } });

  it('offers a registered step type on the record page, runs it with typed inputs, and names bad input', async () => {
    const { context, page, errors } = await newSignedInPage(suite);
    await page.goto(`${suite.service.baseUrl}/app/records/demo-loan-01`);
    const panel = page.getByRole('region', { name: 'Run a step' });
    await panel.waitFor();
    assert.deepEqual(await panel.getByLabel('Step').locator('option').allInnerTexts(), ['word_count']);

    await panel.getByLabel('field').fill('Borrower');
    await panel.getByLabel('times (optional)').fill('3');
    await panel.getByRole('button', { name: 'Run step' }).click();
    await panel.getByText('Words counted').waitFor();
    // "Northwind Traders": two words, three times.
    assert.deepEqual(JSON.parse(await panel.locator('pre').innerText()), { field: 'Borrower', words: 6 });

    await panel.getByLabel('times (optional)').fill('2.5');
    await panel.getByRole('button', { name: 'Run step' }).click();
    await panel.getByRole('alert').filter({ hasText: 'The step did not run: invalid word_count inputs: inputs.times must be an integer' }).waitFor();
    await assertAccessible(page, 'record page with a step panel');
    assertNoPageErrors(errors, [/status of 400/]);
    await context.close();
  });
});
