// Retention of events: each company's period (operator API), the deployment default, the sweep
// removing older events in batches, the change feed's 410 for a cursor from before them, metrics.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { UnitOfWork } from '../../src/domain/unit-of-work.js';
import { ManualClock } from '../../src/lib/clock.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ingestOk, listIds } from '../events/event-fixtures.js';
import { changes, settleFeed } from '../events/feed-fixtures.js';
import { scrape } from '../metrics/exposition.js';
import { daily, retentionCall, setRetention } from './retention-fixtures.js';

describeEachDatabase('retention of events', (kind) => {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  let transactions = 0;
  let t: TestApp;
  before(async () => {
    const counting = (inner: UnitOfWork): UnitOfWork => ({
      run: (work) => {
        transactions++;
        return inner.run(work);
      },
      afterCommit: (scope, callback) => inner.afterCommit(scope, callback),
    });
    t = await createTestApp(kind, {
      clock,
      env: { WRS_RETENTION_BATCH_SIZE: '3', WRS_RETENTION_BATCH_PAUSE_MS: '0' },
      context: { wrapUnitOfWork: counting },
    });
  });
  after(() => t.close());

  it('sets, reads and clears a company period; keeps forever by default', async () => {
    const none = await retentionCall(t, 'ret-set', 'GET');
    assert.equal(none.statusCode, 200, none.body);
    assert.deepEqual(none.json(), { company_id: 'ret-set', retention_days: null, source: 'none', deployment_default_days: null });

    const set = await retentionCall(t, 'ret-set', 'PUT', { retention_days: 30 });
    assert.equal(set.statusCode, 200, set.body);
    assert.deepEqual(set.json(), { company_id: 'ret-set', retention_days: 30, source: 'company', deployment_default_days: null });
    assert.deepEqual((await retentionCall(t, 'ret-set', 'GET')).json(), set.json());

    const forever = await retentionCall(t, 'ret-set', 'PUT', { retention_days: null });
    assert.deepEqual(forever.json(), { company_id: 'ret-set', retention_days: null, source: 'company', deployment_default_days: null });

    const cleared = await retentionCall(t, 'ret-set', 'DELETE');
    assert.equal(cleared.statusCode, 200, cleared.body);
    assert.deepEqual(cleared.json(), none.json());
    assert.equal((await retentionCall(t, 'ret-set', 'DELETE')).statusCode, 200, 'clearing twice is fine');
  });

  it('refuses a bad period with a 400 and changes nothing', async () => {
    await setRetention(t, 'ret-bad', 7);
    for (const body of [
      { retention_days: 0 },
      { retention_days: -1 },
      { retention_days: 1.5 },
      {},
      { retention_days: 30, extra: 1 },
      { retention_days: 36_501 },
    ]) {
      const response = await retentionCall(t, 'ret-bad', 'PUT', body);
      assert.equal(response.statusCode, 400, `${JSON.stringify(body)}: ${response.body}`);
      assert.equal(response.json().code, 'invalid_body');
    }
    assert.equal((await retentionCall(t, 'ret-bad', 'GET')).json().retention_days, 7);
    assert.equal((await retentionCall(t, ' bad', 'GET')).statusCode, 400);
    const user = await t.as('ret-bad', { method: 'GET', url: '/admin/v1/companies/ret-bad/retention' });
    assert.equal(user.statusCode, 401, 'a company user is not the operator');
    await retentionCall(t, 'ret-bad', 'DELETE');
  });

  it('removes events older than the period in batches, leaving newer ones and other companies', async () => {
    // 7 events older than 30 days (Jan 1-7) then 3 newer (Feb 20-22); another company's old events stay.
    await ingestOk(t, 'ret-a', daily('old', 7, '2026-01-07T00:00:00.000Z'));
    await ingestOk(t, 'ret-a', daily('new', 3, '2026-02-22T00:00:00.000Z'));
    await ingestOk(t, 'ret-b', daily('b', 4, '2025-06-04T00:00:00.000Z'));
    await setRetention(t, 'ret-a', 30);
    const listed = await t.as('ret-a', { method: 'GET', url: '/v1/events?limit=100' });
    const etag = listed.headers.etag as string;
    assert.ok(etag);

    const before = transactions;
    const outcome = await t.ctx.retention.sweep();
    assert.deepEqual(outcome, { swept: true, removed: 7 });
    assert.equal(transactions - before, 3, 'batches of 3: 3, 3, 1');

    assert.deepEqual(await listIds(t, 'ret-a', 'order_by=created_at&limit=100'), ['new-1', 'new-2', 'new-3']);
    assert.deepEqual(await listIds(t, 'ret-b', 'order_by=created_at&limit=100'), ['b-1', 'b-2', 'b-3', 'b-4']);
    // The list's data version moved: the old ETag no longer matches, no cached page shows a removed event.
    const again = await t.as('ret-a', { method: 'GET', url: '/v1/events?limit=100', headers: { 'if-none-match': etag } });
    assert.equal(again.statusCode, 200);
    assert.notEqual(again.headers.etag, etag);
    assert.equal(again.json().count, 3);

    assert.deepEqual(await t.ctx.retention.sweep(), { swept: true, removed: 0 }, 'nothing more to remove');
    // Time goes on: the first newer event falls past the period.
    clock.set('2026-03-22T12:00:00.000Z');
    assert.deepEqual(await t.ctx.retention.sweep(), { swept: true, removed: 1 });
    assert.deepEqual(await listIds(t, 'ret-a', 'order_by=created_at&limit=100'), ['new-2', 'new-3']);
  });

  it('answers 410 to a feed cursor from before removed events, and not to one after them', async () => {
    clock.set('2026-03-01T12:00:00.000Z');
    await ingestOk(t, 'ret-feed', daily('f-old', 4, '2026-01-04T00:00:00.000Z'));
    const fromStart = await changes(t, 'ret-feed', { limit: 1 });
    const afterOld = await changes(t, 'ret-feed', { limit: 4 });
    await ingestOk(t, 'ret-feed', daily('f-new', 2, '2026-02-25T00:00:00.000Z'));
    await setRetention(t, 'ret-feed', 30);
    assert.equal((await t.ctx.retention.sweep()).removed, 4);
    await settleFeed(t);

    const stale = await t.as('ret-feed', { method: 'GET', url: `/v1/events/changes?after=${fromStart.next_cursor}` });
    assert.equal(stale.statusCode, 410, stale.body);
    assert.equal(stale.json().code, 'feed_cursor_expired');
    assert.match(stale.json().message, /retention.*start again from the beginning.*or from now/s);
    const staleLarge = await t.as('ret-feed', { method: 'GET', url: `/v1/events/changes?limit=5000&after=${fromStart.next_cursor}` });
    assert.equal(staleLarge.statusCode, 410, 'a page read in chunks too');
    const staleStream = await t.as('ret-feed', { method: 'GET', url: '/v1/events/stream', headers: { 'last-event-id': fromStart.next_cursor } });
    assert.equal(staleStream.statusCode, 410, staleStream.body);

    // A cursor at the last removed event missed nothing: it reads on.
    const fresh = await changes(t, 'ret-feed', { after: afterOld.next_cursor });
    assert.deepEqual(
      fresh.results.map((event) => event.id),
      ['f-new-1', 'f-new-2'],
    );
    // From the beginning: what is kept, never the removed events.
    assert.deepEqual(
      (await changes(t, 'ret-feed')).results.map((event) => event.id),
      ['f-new-1', 'f-new-2'],
    );
    // Every event removed, the next ones still come after the removed positions, never on them.
    await ingestOk(t, 'ret-all', daily('all', 3, '2026-01-03T00:00:00.000Z'));
    const allRead = await changes(t, 'ret-all');
    await setRetention(t, 'ret-all', 30);
    assert.equal((await t.ctx.retention.sweep()).removed, 3);
    await ingestOk(t, 'ret-all', daily('later', 1, '2026-02-28T00:00:00.000Z'));
    assert.deepEqual(
      (await changes(t, 'ret-all', { after: allRead.next_cursor })).results.map((event) => event.id),
      ['later-1'],
    );
    // Another company's cursors are untouched by this one's removals.
    await ingestOk(t, 'ret-other', daily('o', 2, '2026-02-27T00:00:00.000Z'));
    const other = await changes(t, 'ret-other', { limit: 1 });
    assert.equal((await changes(t, 'ret-other', { after: other.next_cursor })).count, 1);
  });

  it('shows events removed and the oldest event kept in /metrics', async () => {
    await t.ctx.retention.sweep();
    const exposition = await scrape(t);
    assert.ok((exposition.value('wrs_events_removed_total') ?? 0) >= 12, exposition.text);
    // ret-b keeps everything: its first event (2025-06-01) is the database's oldest.
    assert.equal(exposition.value('wrs_events_oldest_kept_timestamp_seconds'), Date.parse('2025-06-01T00:00:00.000Z') / 1000);
  });
});

describeEachDatabase('retention of events: the deployment default', (kind) => {
  const clock = new ManualClock('2026-03-01T00:00:00.000Z');
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind, { clock, env: { WRS_EVENT_RETENTION_DAYS: '10', WRS_RETENTION_BATCH_PAUSE_MS: '0' } });
  });
  after(() => t.close());

  it('applies WRS_EVENT_RETENTION_DAYS to every company without a period of its own', async () => {
    assert.deepEqual((await retentionCall(t, 'dflt-a', 'GET')).json(), {
      company_id: 'dflt-a',
      retention_days: 10,
      source: 'deployment',
      deployment_default_days: 10,
    });
    for (const company of ['dflt-a', 'dflt-forever', 'dflt-longer']) await ingestOk(t, company, daily(`${company}-e`, 30, '2026-02-28T00:00:00.000Z'));
    await setRetention(t, 'dflt-forever', null);
    await setRetention(t, 'dflt-longer', 20);
    assert.deepEqual((await retentionCall(t, 'dflt-forever', 'GET')).json(), {
      company_id: 'dflt-forever',
      retention_days: null,
      source: 'company',
      deployment_default_days: 10,
    });

    const outcome = await t.ctx.retention.sweep();
    assert.deepEqual(outcome, { swept: true, removed: 20 + 10 });
    // Kept: created_at at or after the cutoff (Feb 19 for 10 days, Feb 9 for 20).
    assert.equal((await listIds(t, 'dflt-a', 'limit=100')).length, 10);
    assert.equal((await listIds(t, 'dflt-forever', 'limit=100')).length, 30);
    assert.equal((await listIds(t, 'dflt-longer', 'limit=100')).length, 20);

    // Cleared, the company follows the default again.
    await retentionCall(t, 'dflt-forever', 'DELETE');
    assert.equal((await t.ctx.retention.sweep()).removed, 20);
  });

  it('sweeps on its own every WRS_RETENTION_SWEEP_INTERVAL_MS once started', async () => {
    const timed = await createTestApp(kind, { env: { WRS_EVENT_RETENTION_DAYS: '1', WRS_RETENTION_SWEEP_INTERVAL_MS: '1000' } });
    try {
      await ingestOk(timed, 'timed', daily('t', 3, '2020-01-03T00:00:00.000Z'));
      timed.ctx.retention.start((error) => assert.fail(String(error)));
      const deadline = Date.now() + 10_000;
      while ((await listIds(timed, 'timed', 'limit=10')).length > 0) {
        assert.ok(Date.now() < deadline, 'the sweep did not run within 10 s');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await timed.close();
    }
  });
});
