import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { StoredEvent } from '../../src/domain/events/event.js';
import { createEventsRepository } from '../../src/storage/repositories/events-repository.js';
import { createUnitOfWork } from '../../src/storage/unit-of-work.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, ingest, ingestOk } from './event-fixtures.js';
import { changes, settleFeed } from './feed-fixtures.js';

function storedEvent(companyId: string, id: string, text: string): StoredEvent {
  const at = '2026-01-01T00:00:00.000Z';
  return {
    id,
    company_id: companyId,
    connection_id: null,
    connection_key: null,
    created_at: at,
    excluded: false,
    flow_id: null,
    flow_key: null,
    flow_session: null,
    like_value: null,
    seconds_active: null,
    seconds_running: null,
    selected_decision: null,
    step_key: null,
    text,
    type: 'held',
    updated_at: at,
    user_id: null,
    version_id: null,
    version_key: null,
    version_object: null,
  };
}

/** A follower polling the feed until stopped; it records every (id, text) it is handed, in order. */
function startFollower(t: TestApp, company: string, limit: () => number) {
  const seen: { id: string; text: string | null }[] = [];
  let cursor: string | undefined;
  let stopping = false;
  const done = (async () => {
    for (;;) {
      const stop = stopping;
      const page = await changes(t, company, { ...(cursor === undefined ? {} : { after: cursor }), limit: limit() }, { settle: stop });
      for (const event of page.results) seen.push({ id: event.id, text: event.text });
      cursor = page.next_cursor;
      // The last read starts after everything committed: it catches up fully before stopping.
      if (stop && page.count === 0) return;
      if (page.count === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    seen,
    get cursor() {
      return cursor;
    },
    async stop() {
      await settleFeed(t);
      stopping = true;
      await done;
    },
  };
}

describeEachDatabase('events change feed: none skipped, none twice, while ingests commit out of order', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
  });
  after(() => t.close());

  it('a transaction that commits after later ones: the follower still sees its events, once, in order', async () => {
    const company = 'held-co';
    await ingestOk(t, company, [anEvent({ id: 'first' })]);
    const follower = startFollower(t, company, () => 3);
    // The follower has shown 'first' before the hold begins (on PostgreSQL, once the cluster's
    // older transactions have ended, which on a loaded machine can take longer than a fixed wait).
    const deadline = Date.now() + 15_000;
    while (follower.seen.length === 0) {
      assert.ok(Date.now() < deadline, 'the follower showed the first event within 15 s (an open transaction of the cluster holds it back?)');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const repository = createEventsRepository(t.ctx.database);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const wasInserted = new Promise<void>((resolve) => (inserted = resolve));
    const held = createUnitOfWork(t.ctx.database.db).run(async (scope) => {
      await repository.write(await repository.prepare(company, [storedEvent(company, 'held-1', 'held'), storedEvent(company, 'held-2', 'held')]), scope);
      inserted();
      await released;
    });
    await wasInserted;
    // Later ingests: on PostgreSQL they commit now, before the held one; on SQLite they wait for the one writer.
    const later = [1, 2, 3].map((n) => ingest(t, company, [anEvent({ id: `later-${n}`, text: 'later' })]));
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      if (kind === 'postgres') {
        const committed = await Promise.all(later);
        for (const response of committed) assert.equal(response.statusCode, 200, response.body);
      }
      // Nothing that committed after the held transaction began may be shown before it.
      assert.deepEqual(
        follower.seen.map((event) => event.id),
        ['first'],
      );
    } finally {
      // Never left open by a failure: an open transaction holds back the feed of every suite on the cluster.
      release();
      await held;
    }
    for (const response of await Promise.all(later)) assert.equal(response.statusCode, 200, response.body);
    await follower.stop();
    const ids = follower.seen.map((event) => event.id);
    assert.deepEqual(ids.slice(0, 3), ['first', 'held-1', 'held-2']);
    assert.deepEqual(ids.slice(3).sort(), ['later-1', 'later-2', 'later-3']);
    const fromStart = await changes(t, company, { limit: 100 });
    assert.deepEqual(
      fromStart.results.map((event) => event.id),
      ids,
    );
  });

  it('randomized: many concurrent ingests with replacements, one follower sees every final event once at its latest store', async () => {
    const company = 'stress-co';
    let seed = kind === 'sqlite' ? 7 : 11;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const follower = startFollower(t, company, () => 1 + Math.floor(random() * 9));
    const ingests = Array.from({ length: 40 }, (_, n) => {
      const size = 1 + Math.floor(random() * 12);
      // Ids from a small pool: many events are replaced by later ingests (and within one).
      const events = Array.from({ length: size }, (_, i) => anEvent({ id: `id-${Math.floor(random() * 60)}`, text: `ingest-${n}-${i}`, type: 'stress' }));
      return (async () => {
        await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 100)));
        const response = await ingest(t, company, events);
        assert.equal(response.statusCode, 200, response.body);
      })();
    });
    await Promise.all(ingests);
    await follower.stop();

    const final = new Map<string, string | null>();
    const finalOrder: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await changes(t, company, { limit: 10000, ...(cursor ? { after: cursor } : {}) });
      if (page.count === 0) break;
      for (const event of page.results) {
        assert.ok(!final.has(event.id), `${event.id} appears twice in the feed`);
        final.set(event.id, event.text);
        finalOrder.push(event.id);
      }
      cursor = page.next_cursor;
    }
    const pairs = follower.seen.map((event) => `${event.id}=${event.text}`);
    assert.equal(new Set(pairs).size, pairs.length, 'the follower was handed a store twice');
    const lastSeen = new Map(follower.seen.map((event) => [event.id, event.text]));
    assert.deepEqual(lastSeen, final, 'the follower ends with every event at its latest store');
    const latestInFollowerOrder = follower.seen.filter((event) => final.get(event.id) === event.text).map((event) => event.id);
    assert.deepEqual(latestInFollowerOrder, finalOrder);
  });
});
