// GET /metrics itself: who may read it, the text format, the process figures, and its absence
// from the OpenAPI document. Nothing here depends on the database, so it runs on SQLite only.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app.js';
import { parseExposition, scrape } from './exposition.js';

const METRICS_TOKEN = 'test-metrics-token-0123456789';

describe('GET /metrics', () => {
  let t: TestApp;
  let adminOnly: TestApp;
  before(async () => {
    t = await createTestApp('sqlite', { env: { WRS_METRICS_TOKEN: METRICS_TOKEN } });
    adminOnly = await createTestApp('sqlite');
  });
  after(async () => {
    await t.close();
    await adminOnly.close();
  });

  const get = (app: TestApp, authorization?: string) =>
    app.app.inject({ method: 'GET', url: '/metrics', headers: authorization === undefined ? {} : { authorization } });

  describe('credentials', () => {
    it('answers 401 in the error shape of the operator API without a bearer', async () => {
      const response = await get(t);
      assert.equal(response.statusCode, 401);
      assert.equal(response.headers['www-authenticate'], 'Bearer');
      const body = response.json();
      assert.equal(body.code, 'unauthorized');
      assert.match(body.message, /WRS_METRICS_TOKEN or WRS_ADMIN_TOKEN/);
      assert.doesNotMatch(response.body, /wrs_http_request_duration_seconds/);
    });

    it('answers 401 to a wrong bearer and to a company user token', async () => {
      for (const authorization of ['Bearer not-the-metrics-token', `Bearer ${TEST_ADMIN_TOKEN}x`, `Bearer ${await t.userToken('acme')}`]) {
        const response = await get(t, authorization);
        assert.equal(response.statusCode, 401, authorization);
        assert.deepEqual(response.json(), { message: 'metrics token is invalid', code: 'unauthorized' });
      }
    });

    it('answers 200 to the admin token and to WRS_METRICS_TOKEN', async () => {
      assert.equal((await get(t, `Bearer ${TEST_ADMIN_TOKEN}`)).statusCode, 200);
      assert.equal((await get(t, `Bearer ${METRICS_TOKEN}`)).statusCode, 200);
    });

    it('WRS_METRICS_TOKEN reads the metrics and nothing of the operator API', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/admin/v1/companies/acme/record-types',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      assert.equal(response.statusCode, 401);
    });

    it('refuses at boot a WRS_METRICS_TOKEN shorter than 16 characters', () => {
      assert.throws(
        () => loadConfig({ NODE_ENV: 'test', WRS_METRICS_TOKEN: 'short' }),
        (error: unknown) => error instanceof ConfigError && error.problems.some((problem) => problem.startsWith('WRS_METRICS_TOKEN:')),
      );
    });

    it('without WRS_METRICS_TOKEN, only the admin token reads them', async () => {
      assert.equal((await get(adminOnly, `Bearer ${METRICS_TOKEN}`)).statusCode, 401);
      assert.equal((await get(adminOnly, `Bearer ${TEST_ADMIN_TOKEN}`)).statusCode, 200);
    });
  });

  it('answers the Prometheus text format, every line of it well formed', async () => {
    const { text, types } = await scrape(t, METRICS_TOKEN);
    assert.ok(text.endsWith('\n'));
    assert.equal(types.get('wrs_http_request_duration_seconds'), 'histogram');
    assert.equal(types.get('wrs_db_pool_connections_in_use'), 'gauge');
    assert.equal(types.get('wrs_pdf_render_duration_seconds'), 'histogram');
    assert.equal(types.get('wrs_ingested_events_total'), 'counter');
    assert.equal(types.get('wrs_webhook_delivery_attempts_total'), 'counter');
    assert.equal(types.get('wrs_webhook_delivery_lag_seconds'), 'histogram');
    assert.equal(types.get('wrs_rate_limit_store_failures_total'), 'counter');
  });

  it('the parser of these tests refuses what is not the text format', () => {
    assert.throws(() => parseExposition('# TYPE a counter\na{x=1} 2\n'), /malformed labels/);
    assert.throws(() => parseExposition('b 1\n'), /undeclared/);
    assert.throws(() => parseExposition('# TYPE a gauge\na one\n'), /not a number/);
  });

  it('has the process and event-loop figures', async () => {
    const exposition = await scrape(t);
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'process_start_time_seconds', 'nodejs_heap_size_used_bytes']) {
      assert.ok((exposition.value(name) ?? 0) > 0, `${name} is reported`);
    }
    assert.equal(exposition.types.get('nodejs_eventloop_lag_seconds'), 'gauge');
    assert.equal(exposition.types.get('nodejs_eventloop_lag_p99_seconds'), 'gauge');
  });

  it("keeps each app's figures apart (one registry per app, not the process-wide one)", async () => {
    await t.app.inject({ method: 'GET', url: '/healthz' });
    await t.app.inject({ method: 'GET', url: '/healthz' });
    const before = (await scrape(adminOnly)).value('wrs_http_request_duration_seconds_count', { route: '/healthz' });
    assert.equal(before, undefined, 'the other app served no /healthz');
    assert.ok(((await scrape(t)).value('wrs_http_request_duration_seconds_count', { route: '/healthz', status_code: '200' }) ?? 0) >= 2);
  });

  it('is not in the OpenAPI document', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    assert.ok(Object.keys(document.paths).length > 10);
    assert.equal(document.paths['/metrics'], undefined);
    assert.ok(!Object.keys(document.paths).some((path) => path.includes('metrics')));
  });

  it('with the rate limits on, a scraper with its token is not limited; a request without one is charged to its address', async () => {
    const limited = await createTestApp('sqlite', {
      env: { WRS_METRICS_TOKEN: METRICS_TOKEN, WRS_RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '2', WRS_RATE_LIMIT_PER_MINUTE: '2' },
    });
    try {
      for (let i = 0; i < 5; i++) assert.equal((await get(limited, `Bearer ${METRICS_TOKEN}`)).statusCode, 200);
      const refused = [];
      for (let i = 0; i < 4; i++) refused.push((await get(limited)).statusCode);
      assert.deepEqual(refused, [401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});
