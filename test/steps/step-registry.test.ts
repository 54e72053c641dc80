import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { notFound } from '../../src/errors/app-error.js';
import { BUILT_IN_STEP_TYPES, createStepRegistry } from '../../src/domain/steps/step-registry.js';
import { defineStepType } from '../../src/domain/steps/step-type.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineRecordType, INVOICE_TYPE } from '../pdf/fixtures/records.js';

/** A step type that lives in this test only: the registry, not the service's code, makes it offered. */
const textLengthStep = defineStepType({
  type: 'text_length',
  summary: 'measures a text field of the record',
  inputs: Type.Object(
    {
      field: Type.String({ minLength: 1, description: 'the field name' }),
      times: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
    },
    { additionalProperties: false, title: 'TextLengthInputs' },
  ),
  details: Type.Object({ record_id: Type.String(), field: Type.String(), length: Type.Integer() }, { title: 'TextLengthDetails' }),
  async run(tools, { companyId, recordId, inputs }) {
    const record = await tools.findRecord(companyId, recordId);
    if (!record) throw notFound(`no record '${recordId}'`);
    const value = record.fields[inputs.field];
    const length = (typeof value === 'string' ? value.length : 0) * (inputs.times ?? 1);
    return { message: 'Text measured', details: { record_id: recordId, field: inputs.field, length } };
  },
});

const run = (t: TestApp, company: string, recordId: string, payload: object) => t.as(company, { method: 'PUT', url: `/v1/records/${recordId}/steps`, payload });

describeEachDatabase('step registry', (kind) => {
  let t: TestApp;
  let invoice: { id: string };

  before(async () => {
    t = await createTestApp(kind, { context: { stepTypes: [textLengthStep] } });
    await defineRecordType(t, 'acme', 'invoice', INVOICE_TYPE);
    invoice = await createRecord(t, 'acme', 'invoice', { f_customer: 'Zoë Müller GmbH' });
  });
  after(() => t.close());

  it('runs a step type registered by the app builder through the route, answering its details', async () => {
    const response = await run(t, 'acme', invoice.id, { type: 'text_length', inputs: { field: 'customer', times: 2 } });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), { message: 'Text measured', details: { record_id: invoice.id, field: 'customer', length: 30 } });
  });

  it('refuses bad inputs with one 400 listing every problem, taking values as sent, before the record is read', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'invalid text_length inputs: inputs.field is required'],
      [{ field: 42 }, 'invalid text_length inputs: inputs.field must be a string'],
      [{ field: 'customer', times: '2' }, 'invalid text_length inputs: inputs.times must be an integer'],
      [{ field: 'customer', colour: 'red' }, "invalid text_length inputs: unknown input 'inputs.colour'"],
      [{ times: 2.5, colour: 'red' }, "invalid text_length inputs: inputs.field is required; inputs.times must be an integer; unknown input 'inputs.colour'"],
    ];
    for (const [inputs, message] of cases) {
      const response = await run(t, 'acme', 'no-such-record', { type: 'text_length', inputs });
      assert.equal(response.statusCode, 400, JSON.stringify(inputs));
      assert.deepEqual(response.json(), { message, code: 'invalid_body' });
    }
    const tooMany = await run(t, 'acme', invoice.id, { type: 'text_length', inputs: { field: '', times: 11 } });
    assert.equal(tooMany.statusCode, 400);
    assert.equal(tooMany.json().code, 'invalid_body');
    assert.match(tooMany.json().message, /^invalid text_length inputs: inputs\.field is invalid: .*; inputs\.times is invalid: .*$/);
  });

  it("answers 404 for another company's record", async () => {
    const response = await run(t, 'globex', invoice.id, { type: 'text_length', inputs: { field: 'customer' } });
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().code, 'not_found');
  });

  it('names every registered type when the type is unknown', async () => {
    const response = await run(t, 'acme', invoice.id, { type: 'email_send', inputs: {} });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), {
      message: "unsupported step type 'email_send'; supported types: pdf_create, text_length",
      code: 'invalid_body',
      supported_types: ['pdf_create', 'text_length'],
    });
  });

  it('lists the type in the OpenAPI document: the StepType enum, and its inputs and details as named schemas', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const { schemas } = document.components;
    assert.deepEqual(schemas.StepType.enum, ['pdf_create', 'text_length']);
    assert.deepEqual(schemas.StepInputs.oneOf, [{ $ref: '#/components/schemas/PdfCreateInputs' }, { $ref: '#/components/schemas/TextLengthInputs' }]);
    assert.deepEqual(schemas.StepDetails.oneOf, [{ $ref: '#/components/schemas/StoredFile' }, { $ref: '#/components/schemas/TextLengthDetails' }]);
    assert.deepEqual(schemas.TextLengthDetails.required, ['record_id', 'field', 'length']);
    const operation = document.paths['/v1/records/{record}/steps'].put;
    assert.deepEqual(operation.requestBody.content['application/json'].schema.properties, {
      type: { $ref: '#/components/schemas/StepType' },
      inputs: { $ref: '#/components/schemas/StepInputs' },
    });
    assert.match(operation.description, /text_length measures a text field of the record\./);
  });

  it("leaves other apps' registries alone: an app built without the type neither runs nor documents it", async () => {
    const plain = await createTestApp(kind, { database: t.database });
    try {
      const refused = await run(plain, 'acme', invoice.id, { type: 'text_length', inputs: { field: 'customer' } });
      assert.equal(refused.statusCode, 400);
      assert.deepEqual(refused.json().supported_types, ['pdf_create']);
      const document = (await plain.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
      assert.deepEqual(document.components.schemas.StepType.enum, ['pdf_create']);
      assert.equal(document.components.schemas.TextLengthInputs, undefined);
    } finally {
      await plain.close();
    }
  });
});

describe('createStepRegistry', () => {
  it('refuses two types of one name, and names that are not snake_case', () => {
    assert.throws(() => createStepRegistry([...BUILT_IN_STEP_TYPES, { ...textLengthStep, type: 'pdf_create' }]), /two step types are named pdf_create/);
    assert.throws(() => createStepRegistry([{ ...textLengthStep, type: 'Text-Length' }]), /not a snake_case name/);
  });
});
