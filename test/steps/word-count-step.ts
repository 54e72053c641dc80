import { Type } from '@sinclair/typebox';
import { defineStepType } from '../../src/domain/steps/step-type.js';
import { notFound } from '../../src/errors/app-error.js';

/**
 * A step type that lives in the tests only: the registry, not the service's code, makes it
 * offered (by the route, the OpenAPI document and the console). Tests register it through
 * createAppContext's `stepTypes`.
 */
export const wordCountStep = defineStepType({
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
