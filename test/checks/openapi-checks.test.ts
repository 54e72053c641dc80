import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { withSchemasInline } from '../helpers/openapi-refs.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
before(async () => {
  t = await createTestApp('sqlite');
});
after(() => t.close());

it('documents GET /v1/checks and the operator routes in the OpenAPI document', async () => {
  const document = withSchemasInline((await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json());
  const list = document.paths['/v1/checks'].get;
  const params = new Map(list.parameters.map((p: { name: string; schema: unknown }) => [p.name, p.schema]));
  for (const name of [
    'limit',
    'date_created',
    'date_created__gte',
    'send_date__lt',
    'scheduled',
    'mail_type',
    'sort_by',
    'sort_by[date_created]',
    'after',
    'before',
  ]) {
    assert.ok(params.has(name), name);
  }
  assert.deepEqual(
    { minimum: (params.get('limit') as { minimum: number }).minimum, maximum: (params.get('limit') as { maximum: number }).maximum },
    { minimum: 1, maximum: 10000 },
  );
  assert.deepEqual(Object.keys(list.responses).sort(), ['200', '400', '401', '403', '429', '502', '503', '504']);
  assert.deepEqual(list.security, [{ bearer: [] }]);
  const add = document.paths['/admin/v1/companies/{company}/checks'].post;
  // The body is checked by the service, and still described in full.
  const check = add.requestBody.content['application/json'].schema.items;
  assert.deepEqual(check.required.sort(), ['amount', 'bank_account', 'from', 'to']);
  assert.deepEqual(
    check.properties.mail_type.anyOf.map((type: { const?: string; enum?: string[] }) => type.const ?? type.enum?.[0]),
    ['usps_first_class', 'ups_next_day_air'],
  );
  for (const field of ['status', 'failure_reason', 'tracking_events', 'thumbnails', 'use_type']) assert.ok(check.properties[field], field);
  const providers = document.paths['/admin/v1/companies/{company}/providers/lob'];
  assert.ok(providers.put && providers.delete);
  assert.deepEqual(providers.put.security, [{ operator: [] }]);
  assert.ok(!JSON.stringify(providers.put.responses).includes('api_key'), 'the key is never in a response');
});
