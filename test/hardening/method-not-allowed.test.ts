import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { documentedOperations, fillPath } from '../helpers/openapi-operations.js';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const SAMPLE = new Proxy({} as Record<string, string>, { get: (_target, name) => `p-${String(name)}` });

const patternOf = (path: string) => new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);

describe('a known path with a method it does not have', () => {
  let t: TestApp;
  let userToken: string;
  before(async () => {
    t = await createTestApp('sqlite', { env: { WRS_CORS_ORIGINS: 'https://app.example.com' } });
    userToken = await t.userToken('acme');
  });
  after(() => t.close());

  it('answers 405 with Allow naming its methods, on every /v1 and /admin/v1 path', async () => {
    const operations = [...(await documentedOperations(t, '/v1/')), ...(await documentedOperations(t, '/admin/v1/'))];
    const paths = [...new Set(operations.map((operation) => operation.path))];
    assert.ok(paths.length >= 15, `only ${paths.length} paths documented`);
    let lacking = 0;
    for (const path of paths) {
      const concrete = fillPath(path, SAMPLE);
      // A concrete path may match more than one route (POST /v1/records/{typeId}, GET /v1/records/{record}).
      const has = new Set(operations.filter((operation) => patternOf(operation.path).test(concrete)).map((operation) => operation.method as string));
      if (has.has('GET')) has.add('HEAD');
      const allow = METHODS.filter((method) => has.has(method));
      const authorization = `Bearer ${path.startsWith('/admin/') ? TEST_ADMIN_TOKEN : userToken}`;
      for (const method of METHODS.filter((candidate) => !has.has(candidate))) {
        lacking++;
        const response = await t.app.inject({ method, url: concrete, headers: { authorization } });
        assert.equal(response.statusCode, 405, `${method} ${concrete}: ${response.body}`);
        assert.equal(response.headers.allow, allow.join(', '), `${method} ${concrete}`);
        assert.ok(response.headers['x-request-id']);
        if (method !== 'HEAD') {
          assert.equal(response.json().code, 'method_not_allowed');
          assert.match(response.json().message, new RegExp(`^${method} is not allowed on `));
        }
      }
    }
    assert.ok(lacking > 40, `only ${lacking} path/method pairs were tried`);
  });

  it('health paths too; unknown paths stay 404; HEAD of a GET route and CORS preflights are served', async () => {
    const health = await t.app.inject({ method: 'POST', url: '/healthz' });
    assert.equal(health.statusCode, 405);
    assert.equal(health.headers.allow, 'GET, HEAD');

    const unknown = await t.app.inject({ method: 'DELETE', url: '/v1/nothing-here' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().code, 'not_found');
    assert.equal(unknown.headers.allow, undefined);

    const head = await t.app.inject({ method: 'HEAD', url: '/v1/records', headers: { authorization: `Bearer ${userToken}` } });
    assert.equal(head.statusCode, 200);

    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/records/p-record',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'PATCH' },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], 'https://app.example.com');

    const options = await t.app.inject({ method: 'OPTIONS', url: '/v1/records' });
    assert.equal(options.statusCode, 405, 'OPTIONS outside a preflight is a method the path does not have');
    assert.equal(options.headers.allow, 'GET, HEAD');

    const exposed = await t.app.inject({ method: 'PUT', url: '/v1/records', headers: { origin: 'https://app.example.com' } });
    assert.equal(exposed.statusCode, 405);
    assert.match(String(exposed.headers['access-control-expose-headers']), /\ballow\b/);
  });
});

describe('a query that is not valid percent-encoding', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite');
  });
  after(() => t.close());

  const get = (query: string) => t.as('acme', { method: 'GET', url: `/v1/events?${query}` });

  for (const [label, query, param] of [
    ['a bad escape', 'flow_key=%ZZ', 'flow_key'],
    ['truncated UTF-8', 'flow_key=%E0%A4', 'flow_key'],
    ['an encoded lone surrogate', 'type=%ED%A0%80', 'type'],
    ['a lone %', 'limit=5&flow_key=50%', 'flow_key'],
    ['a bad escape in the name', 'flow%ZZkey=x', 'flow%ZZkey'],
  ] as const) {
    it(`is a 400 invalid_query naming the parameter: ${label}`, async () => {
      const response = await get(query);
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, 'invalid_query');
      assert.deepEqual(response.json().invalid_params, [param]);
      assert.match(response.json().message, new RegExp(`'${param.replace('%', '\\%')}'`));
    });
  }

  it('valid escapes, + and repeated names are read as before', async () => {
    assert.equal((await get('flow_key=a%20b+c%25')).statusCode, 200);
    assert.equal((await get('flow_key=%E0%A4%85')).statusCode, 200);
    const repeated = await get('limit=1&limit=2');
    assert.equal(repeated.statusCode, 400);
    assert.deepEqual(repeated.json().invalid_params, ['limit']);
  });

  it('records and checks lists refuse it too', async () => {
    for (const url of ['/v1/records?view_id=%ZZ', '/v1/checks?limit=%E0%A4']) {
      const response = await t.as('acme', { method: 'GET', url });
      assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
      assert.equal(response.json().code, 'invalid_query');
    }
  });
});
