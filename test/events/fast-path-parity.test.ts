import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { noFastPath } from '../../src/fast-path/fast-path.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType } from '../records/fixtures.js';
import { anEvent, filterDataset, ingestOk } from './event-fixtures.js';

// WRS_FAST_PATH=false answers the lists by the plain path alone; the default lets src/fast-path/
// answer first. Both apps share one database: every answer must be the same bytes, headers and
// ETag, whether the fast path read the page, kept it, read a large page in chunks or was not asked.
describeEachDatabase('the fast path answers the same bytes as the plain path', (kind) => {
  let plain: TestApp;
  let fast: TestApp;

  const flows = ['alpha', 'alpine', 'beta', 'gamma'];
  const more = Array.from({ length: 60 }, (_, i) =>
    anEvent({
      id: `p${String(i).padStart(3, '0')}`,
      flow_key: flows[i % flows.length],
      flow_session: i % 7,
      step_key: i % 5 === 0 ? null : `step-${i % 3}`,
      ...(i % 4 === 0 ? { user_id: null } : {}),
      created_at: new Date(Date.UTC(2026, 1, 1, 0, 0, i - (i % 3))).toISOString(),
    }),
  );

  // A company with more events than a page read at once holds (1,000): its large pages are read in
  // chunks of 500, by the fast path's reader or by the events service's openList.
  const BULK = 1600;
  const bulk = Array.from({ length: BULK }, (_, i) =>
    anEvent({
      id: `b${String(i).padStart(5, '0')}`,
      flow_key: flows[i % flows.length],
      flow_session: i % 10 === 0 ? null : i % 13,
      step_key: `step-${i % 40}`,
      // Three events share each created_at: ties are broken by id.
      created_at: new Date(Date.UTC(2026, 1, 2) + Math.floor(((i * 7919) % BULK) / 3) * 1000).toISOString(),
    }),
  );

  before(async () => {
    plain = await createTestApp(kind, { env: { WRS_FAST_PATH: 'false' } });
    fast = await createTestApp(kind, { database: plain.database });
    await ingestOk(plain, 'acme', [...filterDataset(), ...more]);
    await ingestOk(plain, 'bulk', bulk);
    await ingestOk(plain, 'globex', [anEvent({ id: 'g1', flow_key: 'alpha' })]);
    await defineType(plain, 'acme', 'loan');
    await createRecord(plain, 'acme', 'loan');
    await createRecord(plain, 'acme', 'loan');
  });
  after(async () => {
    await fast?.close();
    await plain?.close();
  });

  const LISTS = [
    '/v1/events',
    '/v1/events?flow_key=alpha&created_at__gt=2026-02-01T00:00:10Z',
    '/v1/events?flow_key=alpha&created_at__gt=2026-02-01T00:00:10Z&limit=3&page=2',
    '/v1/events?order_by=-flow_session&limit=7',
    '/v1/events?order_by=-flow_session&limit=7&page=2',
    '/v1/events?order_by=-flow_session&limit=7&page=3',
    '/v1/events?order_by=-flow_session&limit=7&page=30',
    '/v1/events?order_by=user_id&limit=9&page=4',
    '/v1/events?order_by=-step_key&limit=11&page=2',
    '/v1/events?order_by=id&limit=5&page=3',
    '/v1/events?flow_session__gte=2&flow_session__lt=5&order_by=-created_at&limit=4&page=2',
    '/v1/events?flow_key__contains=alp&limit=5',
    '/v1/events?flow_key__contains=alp&limit=5&page=3',
    '/v1/events?flow_key__contains=lp&step_key__contains=step&order_by=-flow_session',
    '/v1/events?step_key__contains=nothing-like-it',
    '/v1/events?user_id=0190a000-0000-7000-8000-00000000000b&type=user_flow_session_started',
    '/v1/events?limit=1000',
    '/v1/events?limit=1001&order_by=-created_at',
    '/v1/events?limit=10000&page=1',
    '/v1/events?flow_key=alpha&bogus=1',
    '/v1/events?limit=0',
    '/v1/records?limit=1',
    '/v1/records',
  ];

  /** Pages over 1,000 events of a company holding more (read in chunks while they are sent, never kept). */
  const LARGE_LISTS = [
    '/v1/events?limit=2000',
    '/v1/events?limit=1200&page=2',
    '/v1/events?order_by=-flow_session&limit=5000',
    '/v1/events?flow_session__gte=2&order_by=-created_at&limit=1001',
    '/v1/events?flow_key__contains=alp&limit=1100',
    '/v1/events?flow_key__contains=lp&step_key__contains=step-1&order_by=-flow_session&limit=1500',
    '/v1/events?step_key__contains=nothing-like-it&limit=2000',
  ];

  const get = (t: TestApp, url: string, headers: Record<string, string> = {}, company = 'acme') => t.as(company, { method: 'GET', url, headers });
  const headersOf = (response: LightMyRequestResponse) => {
    const { date: _date, 'x-request-id': _id, ...rest } = response.headers;
    return rest;
  };
  const same = (fastAnswer: LightMyRequestResponse, plainAnswer: LightMyRequestResponse, what: string) => {
    assert.equal(fastAnswer.statusCode, plainAnswer.statusCode, what);
    assert.ok(fastAnswer.rawPayload.equals(plainAnswer.rawPayload), `${what}: the bodies differ`);
    assert.deepEqual(headersOf(fastAnswer), headersOf(plainAnswer), what);
  };

  /**
   * Every list on each app, compared with the plain answer: twice and with no-cache on the fast
   * app (it then answers from kept pages), once for the large pages (which are never kept).
   */
  const compareAll = async (round: string) => {
    const lists = [...LISTS.map((url) => ({ url, company: 'acme', large: false })), ...LARGE_LISTS.map((url) => ({ url, company: 'bulk', large: true }))];
    for (const { url, company, large } of lists) {
      const what = `${round}, ${company}`;
      const plainAnswer = await get(plain, url, {}, company);
      for (const pass of large ? ['read'] : ['read', 'again']) same(await get(fast, url, {}, company), plainAnswer, `${what}, ${pass}: ${url}`);
      if (!large) same(await get(fast, url, { 'cache-control': 'no-cache' }, company), plainAnswer, `${what}, no-cache: ${url}`);
      const etag = plainAnswer.headers.etag;
      if (plainAnswer.statusCode !== 200) continue;
      assert.equal(typeof etag, 'string', url);
      const held = { 'if-none-match': String(etag) };
      const plainHeld = await get(plain, url, held, company);
      assert.equal(plainHeld.statusCode, 304, url);
      same(await get(fast, url, held, company), plainHeld, `${what}, If-None-Match: ${url}`);
      const stale = { 'if-none-match': 'W/"an-older-answer"' };
      same(await get(fast, url, stale, company), await get(plain, url, stale, company), `${what}, an older If-None-Match: ${url}`);
    }
  };

  it('answers every list alike, before and after a write, and for another company', async (test) => {
    assert.equal(plain.ctx.fastPath, noFastPath, 'WRS_FAST_PATH=false: no fast path');
    assert.notEqual(fast.ctx.fastPath, noFastPath, 'the default: the fast path');
    // Which reader reads the large pages: the fast path's on one app, the events service's on the other.
    const fastChunks = test.mock.method(fast.ctx.fastPath, 'eventChunks');
    const fastOpenList = test.mock.method(fast.ctx.events, 'openList');
    const plainOpenList = test.mock.method(plain.ctx.events, 'openList');
    await compareAll('first');
    await ingestOk(fast, 'acme', [anEvent({ id: 'p-late', flow_key: 'alpha', created_at: '2026-02-01T00:00:30.500Z' })]);
    await ingestOk(fast, 'bulk', [anEvent({ id: 'b-late', flow_key: 'alpine', flow_session: 3, step_key: 'step-1', created_at: '2026-02-02T00:05:00.500Z' })]);
    await createRecord(fast, 'acme', 'loan');
    await compareAll('after a write');
    assert.ok(fastChunks.mock.callCount() > 0, 'the fast path read the large pages');
    assert.equal(fastOpenList.mock.callCount(), 0, 'the fast path left no large page to openList');
    assert.ok(plainOpenList.mock.callCount() > 0, 'WRS_FAST_PATH=false: openList read the large pages');
    for (const url of ['/v1/events', '/v1/events?flow_key=alpha', '/v1/records']) {
      same(await get(fast, url, {}, 'globex'), await get(plain, url, {}, 'globex'), `globex: ${url}`);
    }
  });
});
