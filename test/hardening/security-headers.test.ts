import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { httpRequest } from './helpers/http.js';

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cache-control': 'no-store',
};

function assertSecurityHeaders(headers: Record<string, unknown>, what: string): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) assert.equal(headers[name], value, `${what}: ${name}`);
  assert.equal(headers.server, undefined, `${what}: no Server banner`);
  assert.equal(headers['x-powered-by'], undefined, `${what}: no X-Powered-By banner`);
}

const noCorsHeaders = (response: LightMyRequestResponse) => Object.keys(response.headers).filter((name) => name.startsWith('access-control-'));

describe('security headers and CORS off (the default)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite');
  });
  after(() => t.close());

  it('puts the security headers on every kind of answer, and no HSTS unless configured', async () => {
    const answers: [string, LightMyRequestResponse][] = [
      ['200 /healthz', await t.app.inject({ method: 'GET', url: '/healthz' })],
      ['200 /v1/openapi.json', await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })],
      ['200 list', await t.as('acme', { method: 'GET', url: '/v1/records' })],
      ['401', await t.app.inject({ method: 'GET', url: '/v1/records' })],
      ['404', await t.app.inject({ method: 'GET', url: '/nowhere' })],
      ['400', await t.admin({ method: 'POST', url: '/admin/v1/tokens', payload: {} })],
      [
        '413',
        await t.admin({
          method: 'POST',
          url: '/admin/v1/tokens',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ company_id: 'x'.repeat(1_100_000) }),
        }),
      ],
    ];
    for (const [what, response] of answers) {
      assert.ok(response.statusCode === Number(what.slice(0, 3)), `${what}: ${response.statusCode}`);
      assertSecurityHeaders(response.headers, what);
      assert.equal(response.headers['strict-transport-security'], undefined, what);
    }
  });

  it('sends no banners over a real socket either', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as { port: number };
    const response = await httpRequest(port, 'GET', '/healthz');
    assert.equal(response.status, 200);
    assertSecurityHeaders(response.headers, 'socket');
  });

  it('has no CORS: no Access-Control headers, and a preflight is not answered', async () => {
    const simple = await t.as('acme', { method: 'GET', url: '/v1/records', headers: { origin: 'https://app.example.com' } });
    assert.equal(simple.statusCode, 200);
    assert.deepEqual(noCorsHeaders(simple), []);
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/records',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    assert.equal(preflight.statusCode, 405, 'OPTIONS is not a method of the path when CORS is off');
    assert.deepEqual(noCorsHeaders(preflight), []);
  });
});

describe('HSTS and CORS when configured', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite', {
      env: { WRS_HSTS_MAX_AGE_S: '31536000', WRS_CORS_ORIGINS: 'https://app.example.com, http://localhost:3000' },
    });
  });
  after(() => t.close());

  it('sends Strict-Transport-Security', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(response.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains');
  });

  it('answers a preflight from an allowed origin, allowing the Authorization header', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/records',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization, content-type' },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], 'http://localhost:3000');
    assert.match(String(preflight.headers['access-control-allow-methods']), /\bPATCH\b/);
    assert.match(String(preflight.headers['access-control-allow-headers']), /\bauthorization\b/);
    assert.match(String(preflight.headers['access-control-allow-headers']), /\bcontent-type\b/);
    assert.match(String(preflight.headers['access-control-allow-headers']), /\bif-match\b.*\bif-none-match\b/);
    assert.equal(preflight.headers['access-control-allow-credentials'], undefined);
    assert.equal(preflight.headers.vary, 'Origin');
  });

  it('allows exactly the listed origins on answers, errors included', async () => {
    const allowed = await t.as('acme', { method: 'GET', url: '/v1/records', headers: { origin: 'https://app.example.com' } });
    assert.equal(allowed.statusCode, 200);
    assert.equal(allowed.headers['access-control-allow-origin'], 'https://app.example.com');
    assert.match(String(allowed.headers['access-control-expose-headers']), /\bx-request-id\b.*\bretry-after\b/);
    assert.match(String(allowed.headers['access-control-expose-headers']), /\betag\b/, 'a browser client may read the ETag');
    const refused = await t.app.inject({ method: 'GET', url: '/v1/records', headers: { origin: 'https://app.example.com' } });
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.headers['access-control-allow-origin'], 'https://app.example.com', 'a browser may read the 401');

    for (const origin of ['https://evil.example.com', 'https://app.example.com.evil.test', 'http://app.example.com', 'null']) {
      const other = await t.as('acme', { method: 'GET', url: '/v1/records', headers: { origin } });
      assert.equal(other.headers['access-control-allow-origin'], undefined, origin);
      const preflight = await t.app.inject({
        method: 'OPTIONS',
        url: '/v1/records',
        headers: { origin, 'access-control-request-method': 'GET' },
      });
      assert.equal(preflight.headers['access-control-allow-origin'], undefined, origin);
      assert.notEqual(preflight.statusCode, 204, origin);
    }
  });
});
