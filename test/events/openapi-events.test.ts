import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { withSchemasInline } from '../helpers/openapi-refs.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const KEY_OPERATORS = ['', '__contains', '__gt', '__gte', '__lt', '__lte'];
const EXPECTED_PARAMETERS = [
  ...KEY_OPERATORS.map((op) => `connection_key${op}`),
  'type',
  ...KEY_OPERATORS.map((op) => `flow_key${op}`),
  ...['', '__gt', '__gte', '__lt', '__lte'].map((op) => `flow_session${op}`),
  ...KEY_OPERATORS.map((op) => `step_key${op}`),
  'selected_decision',
  'user_id',
  'user_key',
  ...KEY_OPERATORS.map((op) => `version_key${op}`),
  ...['__gt', '__gte', '__lt', '__lte'].map((op) => `created_at${op}`),
  'limit',
  'page',
  'order_by',
];

describeEachDatabase('OpenAPI of the events routes', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
  });
  after(() => t.close());

  it('documents every parameter of GET /v1/events with its limits', async () => {
    const document = withSchemasInline((await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json());
    const operation = document.paths['/v1/events'].get;
    assert.deepEqual(operation.security, [{ bearer: [] }]);
    const query = operation.parameters.filter((p: { in: string }) => p.in === 'query');
    const parameters = Object.fromEntries(query.map((p: { name: string; in: string; schema: unknown }) => [p.name, { in: p.in, schema: p.schema }]));
    assert.deepEqual(Object.keys(parameters).sort(), [...EXPECTED_PARAMETERS].sort());
    const headers = operation.parameters.filter((p: { in: string }) => p.in !== 'query');
    assert.deepEqual(
      headers.map((p: { name: string; in: string }) => `${p.in} ${p.name}`),
      ['header if-none-match'],
    );
    assert.deepEqual([parameters.limit.schema.type, parameters.limit.schema.minimum, parameters.limit.schema.maximum], ['integer', 1, 10000]);
    assert.equal(parameters.page.schema.minimum, 1);
    assert.equal(parameters.flow_session__gt.schema.type, 'integer');
    assert.ok(parameters.order_by.schema.enum.includes('-created_at'));
    assert.ok(parameters.order_by.schema.enum.includes('flow_session'));
    assert.ok(!parameters.order_by.schema.enum.includes('version_object'));
    const ok = operation.responses['200'].content['application/json'].schema;
    assert.deepEqual(ok.required.sort(), ['count', 'results']);
    assert.ok(ok.properties.results.items.properties.version_object);
    for (const status of ['400', '401']) assert.ok(operation.responses[status], status);
  });

  it('documents the ingest route as an operator route with both body formats', async () => {
    const document = withSchemasInline((await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json());
    const operation = document.paths['/admin/v1/companies/{company}/events'].post;
    assert.deepEqual(operation.security, [{ operator: [] }]);
    assert.deepEqual(Object.keys(operation.requestBody.content).sort(), [
      'application/json',
      'application/jsonl',
      'application/ndjson',
      'application/x-ndjson',
    ]);
    const item = operation.requestBody.content['application/json'].schema.items;
    assert.deepEqual(item.required, ['type']);
    assert.equal(item.additionalProperties, false);
    assert.ok(operation.responses['200'].content['application/json'].schema.properties.ingested);
  });
});
