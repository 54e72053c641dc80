import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describeEachDatabase } from '../helpers/databases.js';
import { createReplicaContext, createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent } from '../events/event-fixtures.js';
import { lapseLeases } from './lifecycle-fixtures.js';

const BATCH_ROWS = 20_000;
const LEAVING_EVENTS = 2 * BATCH_ROWS;
const INGEST_CHUNK = 5000;

async function ingestMany(t: TestApp, company: string, count: number): Promise<void> {
  for (let done = 0; done < count; done += INGEST_CHUNK) {
    const payload = Array.from({ length: Math.min(INGEST_CHUNK, count - done) }, (_, index) => anEvent({ id: `${company}-${done + index}` }));
    const response = await t.admin({ method: 'POST', url: `/admin/v1/companies/${company}/events`, payload });
    assert.equal(response.statusCode, 200, response.body);
  }
}

describeEachDatabase('lifecycle jobs beside the serving process', (kind) => {
  // On SQLite a batch's statements run synchronously: on the serving thread, each batch would
  // stall every request of the process for as long as it takes (here half the job). The
  // jobs' own thread (or PostgreSQL's separate connections) keeps the stalls far below a batch.
  it("answers another company's reads while an offboarding's batches run, the event loop never held for a batch", async () => {
    const t = await createTestApp(kind, { env: { WRS_LIFECYCLE_BATCH_ROWS: String(BATCH_ROWS) } });
    try {
      await ingestMany(t, 'leaving', LEAVING_EVENTS);
      await ingestMany(t, 'staying', 100);
      const stalls = monitorEventLoopDelay({ resolution: 5 });
      const started = performance.now();
      stalls.enable();
      const requested = await t.admin({ method: 'POST', url: '/admin/v1/companies/leaving/offboarding' });
      assert.equal(requested.statusCode, 202, requested.body);
      let finished = false;
      const settled = t.ctx.lifecycleJobs.settled().then(() => (finished = true));
      let reads = 0;
      while (!finished) {
        const read = await t.as('staying', { method: 'GET', url: '/v1/events?limit=10', headers: { 'cache-control': 'no-cache' } });
        assert.equal(read.statusCode, 200, read.body);
        reads++;
      }
      await settled;
      stalls.disable();
      const jobMs = performance.now() - started;
      const longestStallMs = stalls.max / 1e6;

      const report = (await t.admin({ method: 'GET', url: '/admin/v1/companies/leaving/offboarding' })).json();
      assert.equal(report.state, 'done');
      assert.equal(report.removed.events, LEAVING_EVENTS);
      assert.ok(reads > 0);
      // A batch held on the serving thread would stall it for half the job. On PostgreSQL the
      // batches run on the database's connections, but the serving thread still reads the ids a
      // batch returns (20,000 here): a share of a batch, which a loaded machine can stretch.
      const bound = kind === 'sqlite' ? jobMs / 4 : jobMs / 2.5;
      assert.ok(
        longestStallMs < bound,
        `the event loop stalled ${longestStallMs.toFixed(0)} ms in a job of ${jobMs.toFixed(0)} ms of ${LEAVING_EVENTS / BATCH_ROWS} event batches: a batch ran on the serving thread`,
      );
    } finally {
      await t.close();
    }
  });

  it('stops a running job between two batches when its process closes, and another process continues it', async () => {
    const small = { WRS_LIFECYCLE_BATCH_ROWS: '50' };
    const t = await createTestApp(kind, { env: small });
    try {
      await ingestMany(t, 'leaving', 5000);
      const closing = await createReplicaContext(t.database, small);
      await closing.offboardings.request('leaving', 'operator_api');
      const failures: unknown[] = [];
      closing.offboardings.runInBackground('leaving', (error) => failures.push(error));
      while (((await t.ctx.offboardings.get('leaving')).removed.events ?? 0) === 0) await sleep(5);
      await closing.close();
      assert.equal(failures.length, 0, String(failures[0]));

      const stopped = await t.ctx.offboardings.get('leaving');
      assert.equal(stopped.state, 'running');
      const removedBeforeClose = stopped.removed.events ?? 0;
      assert.ok(removedBeforeClose > 0 && removedBeforeClose < 5000, `removed ${removedBeforeClose} before the close`);
      const left = await t.ctx.database.db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', 'leaving')
        .executeTakeFirstOrThrow();
      assert.equal(Number(left.n), 5000 - removedBeforeClose, 'the report counts exactly the committed batches');

      await lapseLeases(t.ctx);
      t.ctx.offboardings.runInBackground('leaving', (error) => failures.push(error));
      await t.ctx.lifecycleJobs.settled();
      assert.equal(failures.length, 0, String(failures[0]));
      const done = await t.ctx.offboardings.get('leaving');
      assert.equal(done.state, 'done');
      assert.equal(done.removed.events, 5000);
    } finally {
      await t.close();
    }
  });
});
