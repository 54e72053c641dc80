import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, EVENT_FIELDS, ingestOk, type EventInput } from './event-fixtures.js';

const COMPANY = 'deep-pages';
const LIMIT = 7;

/** 60 events with ties and nulls in the sort fields, so pages cut through runs of equal values. */
function tiedDataset(prefix: string, count: number, firstSecond = 0): EventInput[] {
  return Array.from({ length: count }, (_, i) => {
    const createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, firstSecond + Math.floor(i / 3))).toISOString();
    return anEvent({
      id: `${prefix}-${String((i * 37) % count).padStart(3, '0')}`,
      created_at: createdAt,
      updated_at: createdAt,
      excluded: i % 2 === 0,
      flow_session: i % 7 === 0 ? null : i % 5,
      like_value: i % 3 === 0 ? null : (i % 4) * 0.5,
      text: i % 4 === 0 ? null : `note ${i % 6}`,
      flow_key: i % 9 === 0 ? null : `flow-${i % 4}`,
    });
  });
}

/** Every page of the query with `page` parameters, each asked for without the page cache. */
async function pages(t: TestApp, query: string, pageNumbers: readonly number[]): Promise<Map<number, unknown[]>> {
  const found = new Map<number, unknown[]>();
  for (const page of pageNumbers) {
    const response = await t.as(COMPANY, {
      method: 'GET',
      url: `/v1/events?${query}&limit=${LIMIT}&page=${page}`,
      headers: { 'cache-control': 'no-cache' },
    });
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json() as { count: number; results: unknown[] };
    assert.equal(body.count, body.results.length);
    found.set(page, body.results);
  }
  return found;
}

async function wholeList(t: TestApp, query: string): Promise<unknown[]> {
  const response = await t.as(COMPANY, { method: 'GET', url: `/v1/events?${query}&limit=10000`, headers: { 'cache-control': 'no-cache' } });
  assert.equal(response.statusCode, 200, response.body);
  return (response.json() as { results: unknown[] }).results;
}

/** Pages asked forward, again forward, backward, and skipping about, each equal to its slice of the whole list. */
async function assertPagesMatch(t: TestApp, query: string): Promise<void> {
  const whole = await wholeList(t, query);
  const last = Math.ceil(whole.length / LIMIT) + 1;
  const forward = Array.from({ length: last }, (_, i) => i + 1);
  const orders = [forward, forward, [...forward].reverse(), [5, 2, 9, 3, 3, 8, 1, 7, 7]];
  for (const pageNumbers of orders) {
    const found = await pages(t, query, pageNumbers);
    for (const [page, results] of found) {
      assert.deepEqual(results, whole.slice((page - 1) * LIMIT, page * LIMIT), `${query}, page ${page}`);
    }
  }
}

describeEachDatabase('GET /v1/events deep pages read from the previous page (anchors)', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
    await ingestOk(t, COMPANY, tiedDataset('e', 60, 100));
  });
  after(() => t.close());

  describe('every page equals its slice of the whole list, however the pages are asked for', () => {
    for (const field of EVENT_FIELDS) {
      for (const sign of ['', '-']) {
        it(`order_by=${sign}${field}`, async () => assertPagesMatch(t, `order_by=${sign}${field}`));
      }
    }
    it('with filters', async () => {
      await assertPagesMatch(t, 'flow_session__gt=0');
      await assertPagesMatch(t, 'flow_session__gt=0&order_by=-like_value');
      await assertPagesMatch(t, 'type=user_flow_step_completed&order_by=text');
    });
  });

  it('a write between pages moves events across the anchors: pages follow the new order at once', async () => {
    const query = 'order_by=created_at';
    await pages(t, query, [1, 2, 3, 4, 5, 6]);
    // Earlier than every event: each anchored offset now points elsewhere.
    await ingestOk(t, COMPANY, tiedDataset('early', 5, 0));
    await assertPagesMatch(t, query);
    // An event replaced with a later created_at moves from the first page to the end.
    const first = (await wholeList(t, query))[0] as { id: string };
    await ingestOk(t, COMPANY, [anEvent({ id: first.id, created_at: '2026-06-01T00:00:00.000Z', updated_at: '2026-06-01T00:00:00.000Z' })]);
    const found = await pages(t, query, [2, 3]);
    const whole = await wholeList(t, query);
    assert.equal((whole.at(-1) as { id: string }).id, first.id);
    assert.deepEqual(found.get(2), whole.slice(LIMIT, 2 * LIMIT));
    assert.deepEqual(found.get(3), whole.slice(2 * LIMIT, 3 * LIMIT));
  });

  it('pages past the end stay empty, before and after the last anchored page', async () => {
    const whole = await wholeList(t, 'order_by=-flow_session');
    const beyond = Math.ceil(whole.length / LIMIT) + 3;
    const found = await pages(t, 'order_by=-flow_session', [beyond, 2, beyond, beyond + 1]);
    assert.deepEqual(found.get(beyond), []);
    assert.deepEqual(found.get(beyond + 1), []);
  });
});
