import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describeEachDatabase('foundation', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
  });
  after(() => t.close());

  it('answers /healthz and /readyz', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(health.statusCode, 200);
    assert.deepEqual(health.json(), { status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json(), { status: 'ready' });
  });

  it('puts x-request-id on every response and keeps a sane incoming one', async () => {
    const generated = await t.app.inject({ method: 'GET', url: '/healthz' });
    assert.match(String(generated.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const kept = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    assert.equal(kept.headers['x-request-id'], 'abc-123');
    const replaced = await t.app.inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': 'bad id!' } });
    assert.notEqual(replaced.headers['x-request-id'], 'bad id!');
  });

  it('answers unknown routes with the error body', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v2/whatever' });
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().code, 'not_found');
    assert.equal(typeof response.json().message, 'string');
  });

  it('serves an OpenAPI 3.1 document without authentication', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    assert.equal(response.statusCode, 200);
    const document = response.json();
    assert.equal(document.openapi, '3.1.0');
    assert.ok(document.components.securitySchemes.bearer);
    assert.ok(document.paths['/admin/v1/tokens'].post);
    assert.deepEqual(document.paths['/admin/v1/tokens'].post.security, [{ operator: [] }]);
  });

  it('guards the operator API with WRS_ADMIN_TOKEN', async () => {
    const missing = await t.app.inject({ method: 'POST', url: '/admin/v1/tokens', payload: { company_id: 'c1' } });
    assert.equal(missing.statusCode, 401);
    assert.equal(missing.json().code, 'unauthorized');
    assert.equal(missing.headers['www-authenticate'], 'Bearer');
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/tokens',
      headers: { authorization: 'Bearer not-the-admin-token' },
      payload: { company_id: 'c1' },
    });
    assert.equal(wrong.statusCode, 401);
  });

  it('mints bearer tokens through the operator API', async () => {
    const response = await t.admin({
      method: 'POST',
      url: '/admin/v1/tokens',
      payload: { company_id: 'c1', user_id: 'u1', expires_in: 60 },
    });
    assert.equal(response.statusCode, 201);
    const body = response.json();
    assert.equal(body.company_id, 'c1');
    assert.equal(body.user_id, 'u1');
    assert.equal(body.token_type, 'Bearer');
    const identity = await t.ctx.authenticator.authenticate(`Bearer ${body.token}`);
    assert.deepEqual(identity, { kind: 'user', companyId: 'c1', userId: 'u1' });
  });

  it('refuses bad operator bodies with a 400 naming the problem', async () => {
    const cases = [
      { payload: {}, contains: 'company_id' },
      { payload: { company_id: 'c1', expires_in: 0 }, contains: 'expires_in' },
      { payload: { company_id: 'c1', extra: 1 }, contains: 'extra' },
    ];
    for (const { payload, contains } of cases) {
      const response = await t.admin({ method: 'POST', url: '/admin/v1/tokens', payload });
      assert.equal(response.statusCode, 400, JSON.stringify(payload));
      assert.equal(response.json().code, 'invalid_body');
      assert.ok(response.json().message.includes(contains), response.json().message);
    }
    const malformed = await t.admin({
      method: 'POST',
      url: '/admin/v1/tokens',
      headers: { 'content-type': 'application/json' },
      payload: '{"company_id":',
    });
    assert.equal(malformed.statusCode, 400);
    assert.equal(malformed.json().code, 'invalid_body');
  });

  it('answers 413 for a body over the limit', async () => {
    const response = await t.admin({
      method: 'POST',
      url: '/admin/v1/tokens',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ company_id: 'x'.repeat(1_100_000) }),
    });
    assert.equal(response.statusCode, 413);
    assert.equal(response.json().code, 'payload_too_large');
  });
});
