import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, ingest } from './event-fixtures.js';

// Pages over 1,000 events are read from the database in chunks (a count first, then the rows
// a chunk at a time); pages up to 1,000 are read at once. The same events paged in pieces of
// 500 or 1,000 must give exactly the bytes of one large page, whatever its filters and order.
describeEachDatabase('large event pages read in chunks', (kind) => {
  const COMPANY = 'chunked-co';
  const BROKEN = 'chunked-broken-co';
  const EVENTS = 3200;
  let t: TestApp;
  let base: string;
  // The same database served with WRS_FAST_PATH=false: its large pages are read by the events service's openList.
  let plain: TestApp;
  let plainBase: string;

  const eventsOf = (prefix: string) =>
    Array.from({ length: EVENTS }, (_, i) =>
      anEvent({
        id: `${prefix}-${String(i).padStart(5, '0')}`,
        // Three events share each created_at: ties are broken by id.
        created_at: new Date(Date.UTC(2026, 1, 1) + Math.floor(((i * 7919) % EVENTS) / 3) * 1000).toISOString(),
        flow_key: i % 11 === 0 ? null : `flow-${i % 7}`,
        flow_session: i % 10 === 0 ? null : i % 13,
        type: i % 3 === 0 ? 'user_flow_step_viewed' : 'user_flow_step_completed',
        step_key: `step-${i % 50}`,
        text: i % 5 === 0 ? `"quoted" \u00e9\u{1f600} ${i}` : null,
        version_object: i % 4 === 0 ? { n: i, nested: { a: [1, 2] } } : undefined,
      }),
    );

  const ingestAll = async (company: string, events: Record<string, unknown>[]) => {
    const response = await ingest(t, company, events as never, 'ndjson');
    assert.equal(response.statusCode, 200, response.body);
  };

  before(async () => {
    t = await createTestApp(kind, { env: { WRS_LARGE_PAGE_WAIT_MS: '3000' } });
    await ingestAll(COMPANY, eventsOf('ev'));
    await ingestAll(BROKEN, eventsOf('br'));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    plain = await createTestApp(kind, { database: t.database, env: { WRS_LARGE_PAGE_WAIT_MS: '3000', WRS_FAST_PATH: 'false' } });
    await plain.app.listen({ port: 0, host: '127.0.0.1' });
    plainBase = `http://127.0.0.1:${(plain.app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await plain?.close();
    await t.close();
  });

  const get = async (url: string, company = COMPANY) => {
    const response = await t.as(company, { method: 'GET', url });
    assert.equal(response.statusCode, 200, response.body);
    return response.body;
  };
  const resultsOf = (body: string) => body.slice(body.indexOf('"results":[') + '"results":['.length, body.lastIndexOf(']'));

  /** The body of one page of `limit` at `page`, put together from pages of `piece` events (each read at once). */
  const inPieces = async (query: string, limit: number, page: number, piece: number) => {
    const parts: string[] = [];
    let count = 0;
    for (let p = ((page - 1) * limit) / piece + 1; p <= (page * limit) / piece; p++) {
      const body = await get(`/v1/events?${query}&limit=${piece}&page=${p}`);
      const part = JSON.parse(body) as { count: number };
      if (part.count === 0) break;
      count += part.count;
      parts.push(resultsOf(body));
    }
    return `{"count":${count},"results":[${parts.join(',')}]}`;
  };

  for (const query of [
    'order_by=created_at',
    'order_by=-created_at',
    'order_by=-flow_session',
    'order_by=flow_session',
    'flow_key__contains=flow-3',
    'flow_key__contains=flow&order_by=-created_at',
    'flow_key__contains=low-&type=user_flow_step_viewed&order_by=-flow_session',
    'flow_session__gte=4&order_by=-id',
    'step_key__contains=step-1&order_by=-flow_session',
  ]) {
    it(`answers ?${query}&limit=10000 with the bytes of the same events paged by 1,000`, async () => {
      const large = await get(`/v1/events?${query}&limit=10000`);
      assert.ok((JSON.parse(large) as { count: number }).count > 0);
      assert.equal(large, await inPieces(query, 10000, 1, 1000));
    });
  }

  it('answers a large page past the first (limit=1500&page=2) with the same bytes as pages of 500', async () => {
    const query = 'order_by=-flow_session';
    assert.equal(await get(`/v1/events?${query}&limit=1500&page=2`), await inPieces(query, 1500, 2, 500));
    assert.equal(await get(`/v1/events?${query}&limit=1500&page=3`), await inPieces(query, 1500, 3, 500));
  });

  it('answers a large page with no or few events as one small page would', async () => {
    assert.equal(await get('/v1/events?flow_key__contains=no-such&limit=5000'), '{"count":0,"results":[]}');
    const few = '/v1/events?flow_session=12&flow_key=flow-1';
    assert.equal(await get(`${few}&limit=5000`), await get(`${few}&limit=1000`));
  });

  const feedInPieces = async (query: string, after: string | undefined, limit: number, piece: number) => {
    const parts: string[] = [];
    let count = 0;
    let cursor = after;
    while (count < limit) {
      const body = await get(`/v1/events/changes?${query}&limit=${piece}${cursor ? `&after=${cursor}` : ''}`);
      const page = JSON.parse(body) as { count: number; next_cursor: string };
      cursor = page.next_cursor;
      if (page.count === 0) break;
      count += page.count;
      parts.push(body.slice(body.indexOf('"results":[') + '"results":['.length, body.lastIndexOf('],"next_cursor"')));
    }
    return `{"count":${count},"results":[${parts.join(',')}],"next_cursor":${JSON.stringify(cursor)}}`;
  };

  for (const query of ['', 'type=user_flow_step_viewed']) {
    it(`answers the change feed ?${query}&limit=10000 with the bytes of the same feed read by 1,000`, async () => {
      assert.equal(await get(`/v1/events/changes?${query}&limit=10000`), await feedInPieces(query, undefined, 10000, 1000));
      const first = JSON.parse(await get(`/v1/events/changes?${query}&limit=700`)) as { next_cursor: string };
      assert.equal(await get(`/v1/events/changes?${query}&limit=2000&after=${first.next_cursor}`), await feedInPieces(query, first.next_cursor, 2000, 500));
    });
  }

  const leaveAfterFirstBytes = () =>
    new Promise<void>((resolve, reject) => {
      void t.userToken(COMPANY).then((token) => {
        const req = httpRequest(`${base}/v1/events?limit=10000`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? resolve() : reject(error)));
        req.end();
      }, reject);
    });

  it('gives the place and the database connection back when clients leave mid-answer', async () => {
    for (let i = 0; i < 8; i++) await leaveAfterFirstBytes();
    const token = await t.userToken(COMPANY);
    const page = await fetch(`${base}/v1/events?limit=10000`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(page.status, 200);
    assert.equal(((await page.json()) as { count: number }).count, EVENTS);
    if (kind === 'postgres') {
      // No read transaction is left open behind a client that went away.
      const { rows } = await sql`select state from pg_stat_activity
        where datname = current_database() and state like 'idle in transaction%'`.execute(t.ctx.database.db);
      assert.deepEqual(rows, []);
    }
  });

  /** The page with its fourth chunk failing to be read (a database error in the middle of a page); `failed` once it has. */
  const failingFourthChunk = <Page extends { next(): Promise<unknown> }>(page: Page, failed: () => void): Page => {
    let chunks = 0;
    return {
      ...page,
      next: async () => {
        if (++chunks === 4) {
          failed();
          throw new Error('the database failed in the middle of the page');
        }
        return page.next();
      },
    };
  };

  for (const reader of ['the fast path', 'the plain openList (WRS_FAST_PATH=false)']) {
    it(`cuts the connection when a chunk read by ${reader} fails after the answer has started: never a complete-looking body`, async (test) => {
      let failures = 0;
      const failed = () => failures++;
      const served = reader === 'the fast path' ? base : plainBase;
      if (reader === 'the fast path') {
        const { fastPath } = t.ctx;
        const eventChunks = fastPath.eventChunks.bind(fastPath);
        test.mock.method(fastPath, 'eventChunks', (...args: Parameters<typeof eventChunks>) =>
          eventChunks(...args)?.then((page) => failingFourthChunk(page, failed)),
        );
      } else {
        const { events } = plain.ctx;
        const openList = events.openList.bind(events);
        test.mock.method(events, 'openList', async (...args: Parameters<typeof openList>) => failingFourthChunk(await openList(...args), failed));
      }
      const token = await t.userToken(BROKEN);
      const response = await fetch(`${served}/v1/events?limit=10000&order_by=id`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(response.status, 200);
      const text = await response.text().then(
        (body) => body,
        () => null,
      );
      if (text !== null) assert.throws(() => JSON.parse(text));
      assert.equal(failures, 1, `the page was read by ${reader}, whose fourth chunk failed`);
      test.mock.restoreAll();
      // The place was given back: the company can still be answered.
      const after = await fetch(`${served}/v1/events?limit=1500&order_by=id`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(after.status, 200);
      assert.equal(((await after.json()) as { count: number }).count, 1500);
    });
  }
});

// An in-memory SQLite database has one connection: a page over 1,000 events is read through it
// at once and handed out in chunks, with the same bytes.
describe('large event pages on an in-memory database', () => {
  const COMPANY = 'memory-co';
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite', { env: { WRS_DATABASE_URL: 'sqlite::memory:' } });
    const events = Array.from({ length: 1700 }, (_, i) => anEvent({ id: `m-${String(i).padStart(5, '0')}`, flow_session: i % 9 }));
    const ingested = await ingest(t, COMPANY, events, 'ndjson');
    assert.equal(ingested.statusCode, 200, ingested.body);
  });
  after(() => t.close());

  it('answers limit=5000 with the bytes of the same events paged by 1,000', async () => {
    const body = async (url: string) => (await t.as(COMPANY, { method: 'GET', url })).body;
    const large = await body('/v1/events?order_by=-flow_session&limit=5000');
    const first = await body('/v1/events?order_by=-flow_session&limit=1000');
    const second = await body('/v1/events?order_by=-flow_session&limit=1000&page=2');
    const results = (page: string) => page.slice(page.indexOf('[') + 1, page.lastIndexOf(']'));
    assert.equal(large, `{"count":1700,"results":[${results(first)},${results(second)}]}`);
  });
});
