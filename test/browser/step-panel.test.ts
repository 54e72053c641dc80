import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { notFound } from '../../src/errors/app-error.js';
import { defineStepType } from '../../src/domain/steps/step-type.js';
import { describeOnOneDatabase } from '../helpers/databases.js';
import { assertAccessible, assertNoPageErrors, newPage, signIn, browserSuite } from './harness.js';

/** A step type of this test alone: the console offers it because the registry does, with no console change. */
const wordCountStep = defineStepType({
  type: 'word_count',
  summary: 'counts the words of a text field of the record',
  inputs: Type.Object(
    {
      field: Type.String({ minLength: 1, description: 'the field’s name, as the record shows it' }),
      times: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
    },
    { additionalProperties: false, title: 'WordCountInputs' },
  ),
  details: Type.Object({ field: Type.String(), words: Type.Integer() }, { title: 'WordCountDetails' }),
  async run(tools, { companyId, recordId, inputs }) {
    const record = await tools.findRecord(companyId, recordId);
    if (!record) throw notFound(`no record '${recordId}'`);
    const value = record.fields[inputs.field];
    const words = typeof value === 'string' ? value.split(/\s+/).filter(Boolean).length : 0;
    return { message: 'Words counted', details: { field: inputs.field, words: words * (inputs.times ?? 1) } };
  },
});

describeOnOneDatabase('web console: a step type from the registry', (kind) => {
  const suite = browserSuite(kind, { context: { stepTypes: [wordCountStep] } });

  it('offers a registered step type on the record page, runs it with typed inputs, and names bad input', async () => {
    const { context, page, errors } = await newPage(suite.browser);
    await signIn(page, suite.service.baseUrl, await suite.service.demoToken());
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
