// The request duration histogram: labelled by method, route template and status code, never by
// a path as requested.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType } from '../records/fixtures.js';
import { scrape } from './exposition.js';

const DURATIONS = 'wrs_http_request_duration_seconds';

describeEachDatabase('request duration metrics', (kind) => {
  let t: TestApp;
  let recordId: string;
  before(async () => {
    t = await createTestApp(kind);
    await defineType(t, 'acme', 'loan');
    recordId = (await createRecord(t, 'acme', 'loan')).id;
  });
  after(() => t.close());

  it('counts a record read under its route template, never under the record id', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await t.as('acme', { method: 'GET', url: `/v1/records/${recordId}` })).statusCode, 200);
    const missing = await t.as('acme', { method: 'GET', url: '/v1/records/00000000-0000-7000-8000-000000000000' });
    assert.equal(missing.statusCode, 404, missing.body);

    const exposition = await scrape(t);
    const labels = { method: 'GET', route: '/v1/records/:record' };
    assert.equal(exposition.value(`${DURATIONS}_count`, { ...labels, status_code: '200' }), 3);
    assert.equal(exposition.value(`${DURATIONS}_count`, { ...labels, status_code: '404' }), 1);
    assert.equal(exposition.value(`${DURATIONS}_bucket`, { ...labels, status_code: '200', le: '+Inf' }), 3);
    assert.ok((exposition.value(`${DURATIONS}_sum`, { ...labels, status_code: '200' }) ?? 0) > 0);
    assert.equal(exposition.value(`${DURATIONS}_count`, { method: 'POST', route: '/v1/records/:typeId', status_code: '201' }), 1);
    assert.ok(!exposition.text.includes(recordId), 'the record id appears nowhere');
    assert.ok(!exposition.text.includes('00000000-0000-7000'), 'nor the id that was not found');
  });

  it('labels a request that matched no route "unmatched", whatever its path', async () => {
    for (const path of ['/no/such/path', '/v1/nothing-here/123', '/favicon-x.ico?q=1']) {
      assert.equal((await t.app.inject({ method: 'GET', url: path })).statusCode, 404);
    }
    const exposition = await scrape(t);
    assert.equal(exposition.value(`${DURATIONS}_count`, { method: 'GET', route: 'unmatched', status_code: '404' }), 3);
    for (const path of ['/no/such/path', 'nothing-here', 'favicon-x']) assert.ok(!exposition.text.includes(path), path);
  });

  it('labels the status actually sent: a refused credential is a 401 of the route', async () => {
    const refused = await t.app.inject({ method: 'GET', url: `/v1/records/${recordId}`, headers: { authorization: 'Bearer nope' } });
    assert.equal(refused.statusCode, 401);
    const exposition = await scrape(t);
    assert.equal(exposition.value(`${DURATIONS}_count`, { method: 'GET', route: '/v1/records/:record', status_code: '401' }), 1);
  });

  it('every series of the histogram has the three labels and a known route', async () => {
    const { find } = await scrape(t);
    const series = find(`${DURATIONS}_count`);
    assert.ok(series.length >= 4);
    for (const { labels } of series) {
      assert.deepEqual(Object.keys(labels).sort(), ['method', 'route', 'status_code']);
      assert.match(labels.status_code!, /^[1-5]\d\d$/);
      assert.ok(labels.route === 'unmatched' || labels.route!.startsWith('/'), labels.route);
    }
  });
});
