// Retention on PostgreSQL's monthly partitions of events (the data lifecycle guide, "Partitions
// of events on PostgreSQL"): a month goes at once only when every company in it may lose it;
// otherwise, and on SQLite, each company's events go in batches. Both answer the same.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { ManualClock } from '../../src/lib/clock.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ingestOk, listIds } from '../events/event-fixtures.js';
import { changes, settleFeed } from '../events/feed-fixtures.js';
import { daily, setRetention } from './retention-fixtures.js';

describeEachDatabase('retention of events by whole months', (kind) => {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind, { clock, env: { WRS_RETENTION_BATCH_SIZE: '4', WRS_RETENTION_BATCH_PAUSE_MS: '0' } });
  });
  after(() => t.close());

  /** The partitions of 2025-01, attached or not (PostgreSQL). */
  const january = async () => {
    const { rows } = await sql<{ attached: boolean }>`select relispartition as attached from pg_class
      where relname = 'events_p2025_01' and relnamespace = 'event_partitions'::regnamespace`.execute(t.ctx.database.db);
    return rows.map((row) => row.attached);
  };

  it('keeps a month another company keeps, removing only its own events; drops it once every company may lose it', async () => {
    await ingestOk(t, 'month-a', daily('a', 10, '2025-01-20T00:00:00.000Z'));
    await ingestOk(t, 'month-b', daily('b', 6, '2025-01-25T00:00:00.000Z'));
    await ingestOk(t, 'month-b', daily('b-new', 2, '2026-02-25T00:00:00.000Z'));
    const fromStart = await changes(t, 'month-b', { limit: 1 });
    await setRetention(t, 'month-a', 30);

    assert.deepEqual(await t.ctx.retention.sweep(), { swept: true, removed: 10 });
    assert.deepEqual(await listIds(t, 'month-a', 'limit=100'), []);
    assert.equal((await listIds(t, 'month-b', 'limit=100')).length, 8);
    if (kind === 'postgres') assert.deepEqual(await january(), [true], "month-b keeps its events: the month's partition stays");

    await setRetention(t, 'month-b', 30);
    assert.deepEqual(await t.ctx.retention.sweep(), { swept: true, removed: 6 });
    assert.deepEqual(await listIds(t, 'month-b', 'order_by=created_at&limit=100'), ['b-new-1', 'b-new-2']);
    if (kind === 'postgres') {
      assert.deepEqual(await january(), [], 'the whole month went, its table with it');
      const { rows } = await sql<{ n: string }>`select count(*) as n from event_partitions.event_ids where created_at < '2025-02'`.execute(t.ctx.database.db);
      assert.equal(Number(rows[0]!.n), 0, 'and the identities of its events');
    }

    // The change feed knows what went: a cursor from before answers 410, the kept events read on.
    await settleFeed(t);
    const stale = await t.as('month-b', { method: 'GET', url: `/v1/events/changes?after=${fromStart.next_cursor}` });
    assert.equal(stale.statusCode, 410, stale.body);
    assert.deepEqual(
      (await changes(t, 'month-b')).results.map((event) => event.id),
      ['b-new-1', 'b-new-2'],
    );
    // The month comes back when an event of it is stored again.
    await ingestOk(t, 'month-b', daily('late', 1, '2025-01-05T00:00:00.000Z'));
    assert.deepEqual(await listIds(t, 'month-b', 'created_at__lt=2025-02-01T00:00:00.000Z&limit=100'), ['late-1']);
  });
});
