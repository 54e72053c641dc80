import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../../src/app-context.js';
import type { UnitOfWork } from '../../src/domain/unit-of-work.js';
import { createAppContext } from '../../src/app-context.js';
import { anEvent, ingestOk } from '../events/event-fixtures.js';
import type { TestApp } from '../helpers/test-app.js';

/** Ingests `count` events of `userId` for `company`, with ids that name both. */
export async function ingestUserEvents(t: TestApp, company: string, userId: string | null, count: number, prefix = userId ?? 'none'): Promise<void> {
  const events = Array.from({ length: count }, (_, index) => anEvent({ id: `${prefix}-${index}`, user_id: userId }));
  for (let start = 0; start < events.length; start += 500) await ingestOk(t, company, events.slice(start, start + 500));
}

/** GETs `path` with the operator token until its body's state is done; answers the body. */
export async function untilDone(t: TestApp, path: string): Promise<Record<string, any>> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const response = await t.admin({ method: 'GET', url: path });
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    if (body.state === 'done') return body;
    await sleep(25);
  }
  throw new Error(`${path} never finished`);
}

/**
 * Another serving process on the test app's database whose unit of work fails from its
 * `crashAfter`-th transaction on: a job it runs stops there, its batches so far committed,
 * as when a process dies mid-job. Close it after use.
 */
export async function crashingContext(t: TestApp, crashAfter: number): Promise<AppContext> {
  let transactions = 0;
  const crashing = (inner: UnitOfWork): UnitOfWork => ({
    run: (work) => (++transactions > crashAfter ? Promise.reject(new Error('simulated crash')) : inner.run(work)),
    afterCommit: (scope, callback) => inner.afterCommit(scope, callback),
  });
  return createAppContext(t.ctx.config, { migrate: false, wrapUnitOfWork: crashing });
}

/** What a lapsed lease looks like: the process that held the job died long enough ago. */
export async function lapseLeases(ctx: AppContext): Promise<void> {
  const db = ctx.database.db;
  await db.updateTable('erasures').set({ lease_until: '2000-01-01T00:00:00.000Z' }).where('state', '=', 'running').execute();
  await db.updateTable('company_offboardings').set({ lease_until: '2000-01-01T00:00:00.000Z' }).where('state', '=', 'running').execute();
}
