// Two serving processes on one database: on PostgreSQL one sweeps while the other leaves it (an
// advisory lock); on SQLite (cluster workers share a file) both may run, each event removed once.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { AppContext } from '../../src/app-context.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createReplicaContext, createTestApp, type TestApp } from '../helpers/test-app.js';
import { ingestOk, listIds } from '../events/event-fixtures.js';
import { scrape } from '../metrics/exposition.js';
import { daily, setRetention } from './retention-fixtures.js';

const SLOW_BATCHES = { WRS_RETENTION_BATCH_SIZE: '1', WRS_RETENTION_BATCH_PAUSE_MS: '40' };

describeEachDatabase('retention of events across replicas', (kind) => {
  let t: TestApp;
  let replica: AppContext;
  before(async () => {
    t = await createTestApp(kind, { env: SLOW_BATCHES });
    replica = await createReplicaContext(t.database, SLOW_BATCHES);
  });
  after(async () => {
    await replica.close();
    await t.close();
  });

  it('sweeps on one replica at a time, and removes each event once', async () => {
    await ingestOk(t, 'rep-co', daily('r', 8, '2020-01-08T00:00:00.000Z'));
    await ingestOk(t, 'rep-co', daily('keep', 2, new Date(Date.now() - 86_400_000).toISOString()));
    await setRetention(t, 'rep-co', 30);
    const first = t.ctx.retention.sweep();
    // The first replica is past its first batch (each is followed by a 40 ms pause) when the second tries.
    await new Promise((resolve) => setTimeout(resolve, 60));
    const second = await replica.retention.sweep();
    const one = await first;
    if (kind === 'postgres') {
      assert.deepEqual(second, { swept: false, removed: 0 }, 'the other replica holds the sweep');
      assert.deepEqual(one, { swept: true, removed: 8 });
    } else {
      assert.equal(one.removed + second.removed, 8, 'each batch under the one writer lock: no event removed twice');
    }
    assert.deepEqual(await listIds(t, 'rep-co', 'order_by=created_at&limit=100'), ['keep-1', 'keep-2']);
    // Once the first is done, the other replica may sweep (and finds nothing left).
    assert.deepEqual(await replica.retention.sweep(), { swept: true, removed: 0 });
    // Both report the oldest event kept; the removals are counted where they happened.
    const exposition = await scrape(t);
    assert.ok(exposition.value('wrs_events_oldest_kept_timestamp_seconds') !== undefined, exposition.text);
    assert.equal(exposition.value('wrs_events_removed_total'), one.removed);
  });
});
