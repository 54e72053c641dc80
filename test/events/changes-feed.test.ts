import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, expectInvalidQuery, ingestOk, listEvents } from './event-fixtures.js';
import { changes, followToEnd } from './feed-fixtures.js';

describeEachDatabase('events change feed: GET /v1/events/changes', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
  });
  after(() => t.close());

  it('starts at the beginning, keeps the order of ingests and of each request, and pages exactly', async () => {
    const empty = await changes(t, 'feed-a');
    assert.equal(empty.count, 0);
    // Created_at order differs from store order: the feed follows the store.
    await ingestOk(t, 'feed-a', [anEvent({ id: 'a3', created_at: '2026-03-01T00:00:00.000Z' }), anEvent({ id: 'a1' })]);
    await ingestOk(t, 'feed-a', [anEvent({ id: 'a2', created_at: '2020-01-01T00:00:00.000Z' })]);
    const first = await changes(t, 'feed-a', { after: empty.next_cursor });
    assert.deepEqual(
      first.results.map((event) => event.id),
      ['a3', 'a1', 'a2'],
    );
    assert.deepEqual(
      (await changes(t, 'feed-a')).results.map((event) => event.id),
      ['a3', 'a1', 'a2'],
    );

    const byTwo = await changes(t, 'feed-a', { limit: 2 });
    assert.deepEqual(
      byTwo.results.map((event) => event.id),
      ['a3', 'a1'],
    );
    const rest = await changes(t, 'feed-a', { limit: 2, after: byTwo.next_cursor });
    assert.deepEqual(
      rest.results.map((event) => event.id),
      ['a2'],
    );
    const nothing = await changes(t, 'feed-a', { after: rest.next_cursor });
    assert.equal(nothing.count, 0);
    assert.equal(nothing.next_cursor, rest.next_cursor);
    assert.equal((await changes(t, 'feed-a', { limit: 1 })).count, 1);
  });

  // A request is written in batches of 5,000 within one transaction; each batch is stored once, after the one before.
  it('keeps the order of a request written in several batches, each event once', async () => {
    const ids = Array.from({ length: 12_345 }, (_, i) => `big-${12_345 - i}`);
    await ingestOk(
      t,
      'feed-big',
      ids.map((id) => anEvent({ id })),
    );
    assert.deepEqual((await followToEnd(t, 'feed-big', undefined, { limit: 10_000 })).ids, ids);
  });

  it('serializes events exactly as GET /v1/events does', async () => {
    await ingestOk(t, 'feed-shape', [
      anEvent({ id: 's1', version_object: { nested: [1, 'two', null] } }),
      anEvent({ id: 's2', excluded: true, text: 'é "quoted"' }),
    ]);
    const listed = (await listEvents(t, 'feed-shape', 'limit=10')).json().results;
    assert.deepEqual((await changes(t, 'feed-shape')).results, listed);
  });

  it('moves a replaced event to its new position: each event once, at its latest store', async () => {
    await ingestOk(t, 'feed-r', [anEvent({ id: 'r1', text: 'v1' }), anEvent({ id: 'r2', text: 'v1' }), anEvent({ id: 'r3', text: 'v1' })]);
    const seen = await followToEnd(t, 'feed-r');
    assert.deepEqual(seen.ids, ['r1', 'r2', 'r3']);
    await ingestOk(t, 'feed-r', [anEvent({ id: 'r1', text: 'v2' })]);
    assert.deepEqual(await followToEnd(t, 'feed-r', seen.cursor), {
      ids: ['r1'],
      texts: ['v2'],
      cursor: (await changes(t, 'feed-r', { after: seen.cursor })).next_cursor,
    });
    const all = await followToEnd(t, 'feed-r');
    assert.deepEqual(all.ids, ['r2', 'r3', 'r1']);
    assert.deepEqual(all.texts, ['v1', 'v1', 'v2']);
  });

  it('filters by exact type, and a cursor of the filtered feed continues it', async () => {
    await ingestOk(t, 'feed-t', [
      anEvent({ id: 't1', type: 'started' }),
      anEvent({ id: 't2', type: 'finished' }),
      anEvent({ id: 't3', type: 'started' }),
      anEvent({ id: 't4', type: 'start' }),
    ]);
    const page = await changes(t, 'feed-t', { type: 'started', limit: 1 });
    assert.deepEqual(
      page.results.map((event) => event.id),
      ['t1'],
    );
    const next = await changes(t, 'feed-t', { type: 'started', after: page.next_cursor });
    assert.deepEqual(
      next.results.map((event) => event.id),
      ['t3'],
    );
    // The cursor is a position in the whole feed: without the filter it continues from there too.
    assert.deepEqual(
      (await changes(t, 'feed-t', { after: page.next_cursor })).results.map((event) => event.id),
      ['t2', 't3', 't4'],
    );
  });

  it("refuses malformed cursors, another company's cursor, bad limits and unknown parameters with 400", async () => {
    await ingestOk(t, 'feed-x', [anEvent({ id: 'x1' })]);
    const own = (await changes(t, 'feed-x')).next_cursor;
    const bad = [own.slice(0, -1), `${own}A`, 'not a cursor', '', own.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')), '1', 'a'.repeat(34)];
    for (const cursor of bad) {
      const response = await t.as('feed-x', { method: 'GET', url: `/v1/events/changes?after=${encodeURIComponent(cursor)}` });
      expectInvalidQuery(response, ['after']);
    }
    const foreign = await t.as('feed-y', { method: 'GET', url: `/v1/events/changes?after=${own}` });
    expectInvalidQuery(foreign, ['after'], 'not a change-feed cursor of this company');
    for (const limit of ['0', '10001', 'x', '1.5']) {
      expectInvalidQuery(await t.as('feed-x', { method: 'GET', url: `/v1/events/changes?limit=${limit}` }), ['limit']);
    }
    expectInvalidQuery(await t.as('feed-x', { method: 'GET', url: '/v1/events/changes?page=2' }), ['page']);
    expectInvalidQuery(await t.as('feed-x', { method: 'GET', url: '/v1/events/changes?type=a&type=b' }), ['type']);
    assert.equal((await changes(t, 'feed-x', { limit: 10000 })).count, 1);
  });

  it('shows each company only its own events, even with the same ids', async () => {
    await ingestOk(t, 'feed-one', [anEvent({ id: 'same', text: 'one' })]);
    await ingestOk(t, 'feed-two', [anEvent({ id: 'same', text: 'two' }), anEvent({ id: 'two-only' })]);
    const one = await followToEnd(t, 'feed-one');
    assert.deepEqual(one, { ids: ['same'], texts: ['one'], cursor: one.cursor });
    assert.deepEqual((await followToEnd(t, 'feed-two')).ids, ['same', 'two-only']);
    assert.equal((await changes(t, 'feed-nobody')).count, 0);
    const response = await t.app.inject({ method: 'GET', url: '/v1/events/changes' });
    assert.equal(response.statusCode, 401);
  });
});
