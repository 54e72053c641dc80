import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import type { StandbyChange } from '../../src/storage/read-routing.js';
import { anEvent, ingestOk, listIds } from '../events/event-fixtures.js';
import { PG_URL } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType, expectStatus } from '../records/fixtures.js';
import { hasPostgresPrograms, startPrimaryAndStandby, waitFor, type PrimaryAndStandby } from './pg-clusters.js';

/** Names the service's standby connections in the standby's pg_stat_activity. */
const READ_APPLICATION = 'wrs-replicas-test';
const RETRY_MS = 400;

const skip = !PG_URL ? 'PostgreSQL tests run with WRS_TEST_PG_URL set' : !hasPostgresPrograms() ? 'PostgreSQL 15 programs not installed' : false;

describe('read replicas: list reads on a PostgreSQL standby', { skip }, () => {
  let clusters: PrimaryAndStandby;
  /** Two service replicas on the same primary and standby. */
  let a: TestApp;
  let b: TestApp;
  const changes: StandbyChange[] = [];

  before(async () => {
    clusters = await startPrimaryAndStandby();
    const replica = () =>
      createTestApp('postgres', {
        database: { kind: 'postgres', url: clusters.primary.url, drop: async () => undefined },
        env: {
          WRS_DATABASE_READ_URL: `${clusters.standby.url}?application_name=${READ_APPLICATION}`,
          WRS_DB_READ_RETRY_MS: String(RETRY_MS),
          WRS_DB_READ_CONNECT_TIMEOUT_MS: '500',
          // Every list reads the database: a kept page would answer without choosing one.
          WRS_PAGE_CACHE_BYTES: '0',
        },
      });
    a = await replica();
    b = await replica();
    a.ctx.readRouting.onStandbyChange((change) => changes.push(change));
  });

  after(async () => {
    await a?.close();
    await b?.close();
    clusters?.remove();
  });

  /** The standby has replayed everything the primary has written so far. */
  const standbyCaughtUp = async () => {
    const [primary] = await clusters.primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
    await waitFor(async () => {
      const [row] = await clusters.standby.query<{ replayed: boolean }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as replayed', [primary!.lsn]);
      return row!.replayed;
    });
  };

  /** The last statement a standby connection of the service ran. */
  const lastStandbyQuery = async () => {
    const rows = await clusters.standby.query<{ query: string }>(
      'select query from pg_stat_activity where application_name = $1 order by query_start desc limit 1',
      [READ_APPLICATION],
    );
    return rows[0]?.query ?? '';
  };

  it('answers event and record lists from the standby once it has replayed the company', async () => {
    await ingestOk(a, 'initech', [anEvent({ id: 'standby-1' }), anEvent({ id: 'standby-2' })]);
    await defineType(a, 'initech', 'loan');
    const record = await createRecord(a, 'initech', 'loan');
    await standbyCaughtUp();
    // The first standby connections are opened now; on a loaded machine one may miss its connect
    // timeout, and the reads of the retry interval then go to the primary, as they should.
    await waitFor(async () => {
      const standbyBefore = a.ctx.readRouting.counts().standby;
      await listIds(a, 'initech');
      return a.ctx.readRouting.counts().standby > standbyBefore;
    });

    const before = a.ctx.readRouting.counts();
    assert.deepEqual(await listIds(a, 'initech'), ['standby-1', 'standby-2']);
    assert.match(await lastStandbyQuery(), /from "events"/);
    const records = expectStatus(await a.as('initech', { method: 'GET', url: '/v1/records' }), 200);
    assert.deepEqual(
      records.results.map((r: { id: string }) => r.id),
      [record.id],
    );
    assert.match(await lastStandbyQuery(), /from "records"/);
    const counted = a.ctx.readRouting.counts();
    assert.ok(counted.standby > before.standby, `standby ${before.standby} -> ${counted.standby}`);
    assert.equal(counted.primary, before.primary, 'no list read went to the primary');
  });

  it('reads its own writes right after them, in one service replica and across two', async (t) => {
    const rounds = 40;
    const before = [a.ctx.readRouting.counts(), b.ctx.readRouting.counts()];
    for (let i = 0; i < rounds; i++) {
      const writer = i % 2 === 0 ? a : b;
      const reader = i % 4 < 2 ? a : b;
      const id = `own-${String(i).padStart(3, '0')}`;
      await ingestOk(writer, 'umbrella', [anEvent({ id })]);
      const ids = await listIds(reader, 'umbrella', 'limit=1000');
      assert.ok(ids.includes(id), `round ${i}: the list read right after the write misses ${id}`);
      assert.equal(ids.length, i + 1);
    }
    const after = [a.ctx.readRouting.counts(), b.ctx.readRouting.counts()];
    const standby = after[0]!.standby - before[0]!.standby + after[1]!.standby - before[1]!.standby;
    const primary = after[0]!.primary - before[0]!.primary + after[1]!.primary - before[1]!.primary;
    assert.equal(standby + primary, rounds, 'every list read was counted once');
    t.diagnostic(`reads right after a write: ${standby} from the standby (already replayed), ${primary} from the primary`);
  });

  it('sends reads to the primary while the standby lags, and back to the standby once it has replayed', async () => {
    await standbyCaughtUp();
    await clusters.standby.query('select pg_wal_replay_pause()');
    try {
      const before = a.ctx.readRouting.counts();
      for (let i = 0; i < 5; i++) {
        const id = `paused-${i}`;
        await ingestOk(b, 'hooli', [anEvent({ id })]);
        assert.ok((await listIds(a, 'hooli')).includes(id), `${id} is missing from the read right after its write while the standby is paused`);
      }
      const during = a.ctx.readRouting.counts();
      assert.equal(during.primary - before.primary, 5);
      assert.equal(during.standby, before.standby);
    } finally {
      await clusters.standby.query('select pg_wal_replay_resume()');
    }
    await standbyCaughtUp();
    assert.equal((await listIds(a, 'hooli')).length, 5);
    // Back on the standby: at once, or after the retry interval when a standby connection missed
    // its timeout on a loaded machine while replay was paused.
    await waitFor(async () => {
      const resumed = a.ctx.readRouting.counts().standby;
      await listIds(a, 'hooli');
      return a.ctx.readRouting.counts().standby === resumed + 1;
    });
  });

  it('falls back to the primary quickly while the standby is down, and uses it again once it is back', async () => {
    clusters.standby.stop();
    let standbyStopped = true;
    try {
      const before = a.ctx.readRouting.counts();
      const started = performance.now();
      for (let i = 0; i < 10; i++) {
        const id = `down-${i}`;
        await ingestOk(a, 'globex', [anEvent({ id })]);
        assert.ok((await listIds(a, 'globex')).includes(id));
      }
      const elapsed = performance.now() - started;
      // One read pays the refused connection; the others skip the standby for RETRY_MS.
      assert.ok(elapsed < 5000, `10 writes and reads took ${Math.round(elapsed)} ms with the standby down`);
      assert.equal(a.ctx.readRouting.counts().primary - before.primary, 10);
      assert.equal(changes.at(-1)?.state, 'down');

      clusters.standby.start();
      standbyStopped = false;
      await standbyCaughtUp();
      const back = a.ctx.readRouting.counts();
      await waitFor(async () => {
        assert.equal((await listIds(a, 'globex')).length, 10);
        return a.ctx.readRouting.counts().standby > back.standby;
      });
      assert.equal(changes.at(-1)?.state, 'back');
    } finally {
      if (standbyStopped) clusters.standby.start();
    }
  });
});
