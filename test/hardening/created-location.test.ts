import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { lobCheck } from '../checks/check-factory.js';
import { minimalTemplate } from '../pdf/fixtures/templates.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { LOAN_TYPE, VALID_LOAN } from '../records/fixtures.js';

const BASE = 'http://wrs.test';

describe('POST and PUT that create answer 201, with Location where one resource was created', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite');
  });
  after(() => t.close());

  it('record types and templates: 201 and Location when created, 200 without when replaced', async () => {
    const url = '/admin/v1/companies/ac%20me/record-types/loan';
    const created = await t.admin({ method: 'PUT', url, payload: LOAN_TYPE });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.headers.location, `${BASE}${url}`);
    const replaced = await t.admin({ method: 'PUT', url, payload: LOAN_TYPE });
    assert.equal(replaced.statusCode, 200);
    assert.equal(replaced.headers.location, undefined);

    const templateUrl = '/admin/v1/companies/ac%20me/templates/invoice';
    const template = await t.admin({ method: 'PUT', url: templateUrl, payload: minimalTemplate() });
    assert.equal(template.statusCode, 201, template.body);
    assert.equal(template.headers.location, `${BASE}${templateUrl}`);
    assert.equal((await t.admin({ method: 'GET', url: new URL(template.headers.location!).pathname })).statusCode, 200);
    const again = await t.admin({ method: 'PUT', url: templateUrl, payload: minimalTemplate() });
    assert.equal(again.statusCode, 200);
    assert.equal(again.headers.location, undefined);
  });

  it('a record: Location is the record, readable there', async () => {
    const response = await t.as('ac me', { method: 'POST', url: '/v1/records/loan', payload: VALID_LOAN });
    assert.equal(response.statusCode, 201, response.body);
    const record = response.json();
    assert.equal(response.headers.location, `${BASE}/v1/records/${encodeURIComponent(record.id)}`);
    const read = await t.as('ac me', { method: 'GET', url: new URL(response.headers.location!).pathname });
    assert.equal(read.json().id, record.id);
  });

  it('a record token (tokens and actions): Location is the token, revocable there', async () => {
    const record = (await t.as('ac me', { method: 'POST', url: '/v1/records/loan', payload: VALID_LOAN })).json();
    for (const suffix of ['tokens', 'actions']) {
      const minted = await t.as('ac me', { method: 'POST', url: `/v1/records/${record.id}/${suffix}`, payload: {} });
      assert.equal(minted.statusCode, 201, minted.body);
      const { key } = minted.json();
      assert.equal(minted.headers.location, `${BASE}/v1/records/${record.id}/tokens/${key}`);
      const revoked = await t.as('ac me', { method: 'DELETE', url: new URL(minted.headers.location!).pathname });
      assert.equal(revoked.statusCode, 204);
    }
  });

  it('batches: records import and checks add answer 201 (200 when empty); operator tokens 201', async () => {
    const imported = await t.admin({
      method: 'POST',
      url: '/admin/v1/companies/acme/records',
      payload: [{ record_type: 'uccfiling', status: 'active' }],
    });
    assert.equal(imported.statusCode, 201, imported.body);
    assert.deepEqual(imported.json(), { imported: 1 });
    assert.equal((await t.admin({ method: 'POST', url: '/admin/v1/companies/acme/records', payload: [] })).statusCode, 200);

    const checks = await t.admin({ method: 'POST', url: '/admin/v1/companies/acme/checks', payload: [lobCheck()] });
    assert.equal(checks.statusCode, 201, checks.body);
    assert.equal((await t.admin({ method: 'POST', url: '/admin/v1/companies/acme/checks', payload: [] })).statusCode, 200);

    const token = await t.admin({ method: 'POST', url: '/admin/v1/tokens', payload: { company_id: 'acme' } });
    assert.equal(token.statusCode, 201, token.body);
  });

  it('the OpenAPI document names the Location header of each 201 with one resource', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    for (const [path, method] of [
      ['/v1/records/{typeId}', 'post'],
      ['/v1/records/{record}/tokens', 'post'],
      ['/v1/records/{record}/actions', 'post'],
      ['/admin/v1/companies/{company}/record-types/{typeId}', 'put'],
      ['/admin/v1/companies/{company}/templates/{templateId}', 'put'],
    ] as const) {
      const created = document.paths[path]?.[method]?.responses?.['201'];
      assert.ok(created?.headers?.location, `${method} ${path}: ${JSON.stringify(created)}`);
      assert.ok(created.content, `${method} ${path} still documents its body`);
    }
  });
});
