import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BUILT_IN_STEP_TYPES, createStepRegistry } from '../../src/domain/steps/step-registry.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineRecordType, INVOICE_TYPE } from '../pdf/fixtures/records.js';
import { wordCountStep } from './word-count-step.js';

const run = (t: TestApp, company: string, recordId: string, payload: object) => t.as(company, { method: 'PUT', url: `/v1/records/${recordId}/steps`, payload });

describeEachDatabase('step registry', (kind) => {
  let t: TestApp;
  let invoice: { id: string };

  before(async () => {
    t = await createTestApp(kind, { context: { stepTypes: [wordCountStep] } });
    await defineRecordType(t, 'acme', 'invoice', INVOICE_TYPE);
    invoice = await createRecord(t, 'acme', 'invoice', { f_customer: 'Zoë Müller GmbH' });
  });
  after(() => t.close());

  it('runs a step type registered by the app builder through the route, answering its details', async () => {
    const response = await run(t, 'acme', invoice.id, { type: 'word_count', inputs: { field: 'customer', times: 2 } });
    assert.equal(response.statusCode, 200, response.body);
    // "Zoë Müller GmbH": three words, twice.
    assert.deepEqual(response.json(), { message: 'Words counted', details: { field: 'customer', words: 6 } });
  });

  it('refuses bad inputs with one 400 listing every problem, taking values as sent, before the record is read', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'invalid word_count inputs: inputs.field is required'],
      [{ field: 42 }, 'invalid word_count inputs: inputs.field must be a string'],
      [{ field: 'customer', times: '2' }, 'invalid word_count inputs: inputs.times must be an integer'],
      [{ field: 'customer', colour: 'red' }, "invalid word_count inputs: unknown input 'inputs.colour'"],
      [{ times: 2.5, colour: 'red' }, "invalid word_count inputs: inputs.field is required; inputs.times must be an integer; unknown input 'inputs.colour'"],
    ];
    for (const [inputs, message] of cases) {
      const response = await run(t, 'acme', 'no-such-record', { type: 'word_count', inputs });
      assert.equal(response.statusCode, 400, JSON.stringify(inputs));
      assert.deepEqual(response.json(), { message, code: 'invalid_body' });
    }
    const tooMany = await run(t, 'acme', invoice.id, { type: 'word_count', inputs: { field: '', times: 11 } });
    assert.equal(tooMany.statusCode, 400);
    assert.equal(tooMany.json().code, 'invalid_body');
    assert.match(tooMany.json().message, /^invalid word_count inputs: inputs\.field is invalid: .*; inputs\.times is invalid: .*$/);
  });

  it("answers 404 for another company's record", async () => {
    const response = await run(t, 'globex', invoice.id, { type: 'word_count', inputs: { field: 'customer' } });
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().code, 'not_found');
  });

  it('names every registered type when the type is unknown', async () => {
    const response = await run(t, 'acme', invoice.id, { type: 'email_send', inputs: {} });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), {
      message: "unsupported step type 'email_send'; supported types: pdf_create, word_count",
      code: 'invalid_body',
      supported_types: ['pdf_create', 'word_count'],
    });
  });

  it('lists the type in the OpenAPI document: the StepType enum, and its inputs and details as named schemas', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const { schemas } = document.components;
    assert.deepEqual(schemas.StepType.enum, ['pdf_create', 'word_count']);
    assert.deepEqual(schemas.StepInputs.oneOf, [{ $ref: '#/components/schemas/PdfCreateInputs' }, { $ref: '#/components/schemas/WordCountInputs' }]);
    assert.deepEqual(schemas.StepDetails.oneOf, [{ $ref: '#/components/schemas/StoredFile' }, { $ref: '#/components/schemas/WordCountDetails' }]);
    assert.deepEqual(schemas.WordCountDetails.required, ['field', 'words']);
    const operation = document.paths['/v1/records/{record}/steps'].put;
    assert.deepEqual(operation.requestBody.content['application/json'].schema.properties, {
      type: { $ref: '#/components/schemas/StepType' },
      inputs: { $ref: '#/components/schemas/StepInputs' },
    });
    assert.match(operation.description, /word_count counts the words of a text field of the record\./);
    // The step.completed webhook names the same types, and their details, as the route.
    assert.deepEqual(schemas.StepCompleted.properties, {
      record_id: { type: 'string' },
      type: { $ref: '#/components/schemas/StepType' },
      details: { $ref: '#/components/schemas/StepDetails' },
    });
  });

  it("leaves other apps' registries alone: an app built without the type neither runs nor documents it", async () => {
    const plain = await createTestApp(kind, { database: t.database });
    try {
      const refused = await run(plain, 'acme', invoice.id, { type: 'word_count', inputs: { field: 'customer' } });
      assert.equal(refused.statusCode, 400);
      assert.deepEqual(refused.json().supported_types, ['pdf_create']);
      const document = (await plain.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
      assert.deepEqual(document.components.schemas.StepType.enum, ['pdf_create']);
      assert.equal(document.components.schemas.WordCountInputs, undefined);
    } finally {
      await plain.close();
    }
  });
});

describe('createStepRegistry', () => {
  it('refuses two types of one name, and names that are not snake_case', () => {
    assert.throws(() => createStepRegistry([...BUILT_IN_STEP_TYPES, { ...wordCountStep, type: 'pdf_create' }]), /two step types are named pdf_create/);
    assert.throws(() => createStepRegistry([{ ...wordCountStep, type: 'Word-Count' }]), /not a snake_case name/);
  });
});
