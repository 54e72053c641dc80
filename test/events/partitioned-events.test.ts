// PostgreSQL keeps events in month partitions (migration 0022): a replacement that moves an
// event to another month, concurrent replacements of one id, a month created while its events
// wait in DEFAULT, retention dropping a whole month, an offboarding across partitions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { parseEventQuery } from '../../src/domain/events/event-query.js';
import { ManualClock } from '../../src/lib/clock.js';
import { compileEventPage, type PageVariant } from '../../src/storage/repositories/event-query-compiler.js';
import { PG_URL } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { untilDone } from '../lifecycle/lifecycle-fixtures.js';
import { statementsOf } from '../sql-snapshots/sql-capture.js';
import { setRetention } from '../retention/retention-fixtures.js';
import { anEvent, ingest, ingestOk, listIds } from './event-fixtures.js';
import { changes, followToEnd } from './feed-fixtures.js';

const at = (day: string) => ({ created_at: `${day}T10:00:00.000Z`, updated_at: `${day}T10:00:00.000Z` });

describe('events in month partitions [postgres]', { concurrency: 1, skip: PG_URL ? false : 'WRS_TEST_PG_URL is not set' }, () => {
  const clock = new ManualClock('2025-05-10T12:00:00.000Z');
  let t: TestApp;
  before(async () => {
    t = await createTestApp('postgres', { clock, env: { WRS_LIFECYCLE_BATCH_ROWS: '2', WRS_RETENTION_BATCH_PAUSE_MS: '0' } });
    await t.ctx.retention.sweep(); // creates 2025-05 and the two months after it
  });
  after(() => t.close());

  /** The ids of the company's events stored in one table (a partition). */
  async function idsIn(table: string, company: string): Promise<string[]> {
    const { rows } = await sql<{ id: string }>`select id from ${sql.table(table)} where company_id = ${company} order by id`.execute(t.ctx.database.db);
    return rows.map((row) => row.id);
  }

  async function claimed(company: string): Promise<{ id: string; created_at: string }[]> {
    const { rows } = await sql<{ id: string; created_at: string }>`select id, created_at from event_ids where company_id = ${company} order by id`.execute(
      t.ctx.database.db,
    );
    return rows;
  }

  async function partitions(): Promise<string[]> {
    const { rows } = await sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'events'::regclass order by 1`.execute(t.ctx.database.db);
    return rows.map((row) => row.name);
  }

  it('moves a replaced event to the partition of its new created_at, at a new feed position, once', async () => {
    for (const month of ['events_2025_05', 'events_2025_06', 'events_2025_07']) assert.ok((await partitions()).includes(month), month);
    await ingestOk(t, 'p-move', [
      anEvent({ id: 'a', ...at('2025-05-02') }),
      anEvent({ id: 'x', ...at('2025-05-04') }),
      anEvent({ id: 'b', ...at('2025-05-03') }),
    ]);
    const { cursor } = await followToEnd(t, 'p-move');
    await ingestOk(t, 'p-move', [anEvent({ id: 'x', text: 'moved', ...at('2025-06-15') })]);

    assert.deepEqual(await idsIn('events_2025_05', 'p-move'), ['a', 'b']);
    assert.deepEqual(await idsIn('events_2025_06', 'p-move'), ['x']);
    assert.deepEqual(await listIds(t, 'p-move'), ['a', 'b', 'x']);
    assert.deepEqual((await followToEnd(t, 'p-move')).ids, ['a', 'b', 'x'], 'the replaced event is read once, at its new position');
    const since = await followToEnd(t, 'p-move', cursor);
    assert.deepEqual(since.ids, ['x']);
    assert.deepEqual(since.texts, ['moved']);
    assert.deepEqual(await claimed('p-move'), [
      { id: 'a', created_at: '2025-05-02T10:00:00.000Z' },
      { id: 'b', created_at: '2025-05-03T10:00:00.000Z' },
      { id: 'x', created_at: '2025-06-15T10:00:00.000Z' },
    ]);
  });

  it('keeps one event of an id that concurrent ingests replace, wherever each put it', async () => {
    const days = ['2025-05-20', '2025-06-01', '2025-07-09', '1999-01-01', '2025-05-21', '2025-06-02', '2025-07-10', '2200-03-04'];
    for (let round = 0; round < 3; round++) {
      const responses = await Promise.all(
        days.map((day, i) => ingest(t, 'p-race', [anEvent({ id: 'y', text: `${round}-${i}`, ...at(day) }), anEvent({ id: `z${i}`, ...at(day) })])),
      );
      for (const response of responses) assert.equal(response.statusCode, 200, response.body);
      const { rows } = await sql<{ created_at: string; text: string }>`select created_at, text from events
        where company_id = 'p-race' and id = 'y'`.execute(t.ctx.database.db);
      assert.equal(rows.length, 1, `round ${round}: one event y, not ${rows.length}`);
      assert.deepEqual(
        (await claimed('p-race')).find((row) => row.id === 'y'),
        { id: 'y', created_at: rows[0]!.created_at },
        'event_ids names where it is',
      );
      const ids = await listIds(t, 'p-race', 'limit=100');
      assert.equal(ids.filter((id) => id === 'y').length, 1);
      assert.equal(ids.length, days.length + 1);
    }
    assert.equal((await followToEnd(t, 'p-race')).ids.filter((id) => id === 'y').length, 1);
  });

  it('reads a page of exact filters month by month, in arms, the same page as one statement whatever the bounds', async () => {
    // Three events a day (the third another flow), the first two at one instant: ties go by id.
    const days = ['1999-12-31', '2025-04-30', '2025-05-01', '2025-05-19', '2025-06-30', '2025-07-01', '2025-07-31', '2025-08-01', '2300-01-01'];
    const events = days.flatMap((day, d) =>
      ['b', 'a', 'c'].map((suffix, i) =>
        anEvent({ id: `e${d}${suffix}`, flow_key: i === 2 ? 'other' : 'wanted', created_at: `${day}T10:00:0${i === 2 ? 1 : 0}.000Z` }),
      ),
    );
    await ingestOk(t, 'p-arms', events);
    const { db } = t.ctx.database;
    const ids = async (url: string, variant: PageVariant = {}) => {
      const query = parseEventQuery(Object.fromEntries(new URLSearchParams(url)));
      const rows = await compileEventPage(db, 'postgres', 'p-arms', query, new Map(), variant).execute();
      return (rows as unknown as { id: string }[]).map((row) => row.id);
    };
    const boundsSets = [[], ['2025-05', '2025-06', '2025-07', '2025-08'], ['2025-05-19T10:00:00.000Z', '2025-07'], ['0000', '9999']];
    for (const url of [
      'flow_key=wanted',
      'flow_key=wanted&order_by=-created_at&limit=5',
      'flow_key=wanted&limit=3&page=3',
      'connection_key=salesforce&flow_key=other&limit=2',
    ]) {
      const whole = await ids(url);
      assert.ok(whole.length > 0, url);
      for (const createdAtBounds of boundsSets) assert.deepEqual(await ids(url, { createdAtBounds }), whole, `${url} in arms at ${createdAtBounds.join(' ')}`);
    }

    // The fast path reads such a page in arms at the partitions' bounds once it has read them.
    const expected = await ids('flow_key=wanted&order_by=-created_at');
    let statements: string[] = [];
    for (let tries = 0; tries < 50 && !statements.some((text) => text.includes('union all')); tries++) {
      // Built afresh each time (no-cache): a kept page reads no events.
      const read = () => t.as('p-arms', { method: 'GET', url: '/v1/events?flow_key=wanted&order_by=-created_at', headers: { 'cache-control': 'no-cache' } });
      statements = await statementsOf(async () => {
        const answer = await read();
        assert.deepEqual(
          (answer.json() as { results: { id: string }[] }).results.map((event) => event.id),
          expected,
        );
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const page = statements.find((text) => text.includes('union all'));
    assert.ok(page, `a page in arms, among: ${statements.join('\n')}`);
    for (const month of ['2025-05', '2025-06', '2025-07', '2025-08']) assert.ok(page.includes(`'${month}'`), month);
  });

  it('moves the events waiting in DEFAULT into the month created for them', async () => {
    await ingestOk(t, 'p-wait', [anEvent({ id: 'w1', flow_key: 'waiting', ...at('2025-09-03') }), anEvent({ id: 'w0', ...at('2025-05-05') })]);
    assert.deepEqual(await idsIn('events_default', 'p-wait'), ['w1']);
    const feed = await followToEnd(t, 'p-wait');

    clock.set('2025-08-20T00:00:00.000Z');
    await t.ctx.retention.sweep();
    assert.ok((await partitions()).includes('events_2025_09'));
    assert.deepEqual(await idsIn('events_default', 'p-wait'), []);
    assert.deepEqual(await idsIn('events_2025_09', 'p-wait'), ['w1']);
    assert.deepEqual(await listIds(t, 'p-wait'), ['w0', 'w1']);
    assert.deepEqual(await listIds(t, 'p-wait', 'flow_key=waiting'), ['w1']);
    assert.deepEqual((await followToEnd(t, 'p-wait')).ids, feed.ids, 'the feed reads the same events');
    assert.deepEqual((await followToEnd(t, 'p-wait', feed.cursor)).ids, [], 'and nothing anew');
    clock.set('2025-05-10T12:00:00.000Z');
  });

  it('never touches another company’s rows when offboarding, though row addresses repeat across partitions', async () => {
    for (const company of ['off-a', 'off-b']) {
      await ingestOk(
        t,
        company,
        ['2025-05-06', '2025-06-06', '2025-07-06', '1990-01-01', '2025-05-07'].map((day, i) => anEvent({ id: `${company}-${i}`, ...at(day) })),
      );
    }
    const staying = await listIds(t, 'off-b');
    await t.admin({ method: 'POST', url: '/admin/v1/companies/off-a/offboarding' });
    const report = await untilDone(t, '/admin/v1/companies/off-a/offboarding');
    assert.equal(report.removed.events, 5);
    assert.deepEqual(await listIds(t, 'off-a'), []);
    assert.deepEqual(await claimed('off-a'), []);
    assert.deepEqual(await listIds(t, 'off-b'), staying);
    assert.equal((await claimed('off-b')).length, 5);
  });
});

describe('retention of whole months [postgres]', { concurrency: 1, skip: PG_URL ? false : 'WRS_TEST_PG_URL is not set' }, () => {
  const clock = new ManualClock('2025-01-10T12:00:00.000Z');
  let t: TestApp;
  before(async () => {
    t = await createTestApp('postgres', { clock, env: { WRS_RETENTION_BATCH_SIZE: '2', WRS_RETENTION_BATCH_PAUSE_MS: '0' } });
  });
  after(() => t.close());

  async function exists(table: string): Promise<boolean> {
    const { rows } = await sql<{ found: string | null }>`select to_regclass(${table})::text as found`.execute(t.ctx.database.db);
    return rows[0]!.found !== null;
  }

  async function count(query: ReturnType<typeof sql<{ n: string }>>): Promise<number> {
    return Number((await query.execute(t.ctx.database.db)).rows[0]!.n);
  }

  it('drops a month past every period of its companies, keeps one a longer period still holds, and deletes the edge by batches', async () => {
    await t.ctx.retention.sweep(); // creates 2025-01 to 2025-03
    await setRetention(t, 'short', 30);
    await setRetention(t, 'long', 3650);
    const january = ['01', '02', '03', '04', '05'].map((day, i) =>
      anEvent({ id: `s${i}`, flow_key: i === 0 ? 'only-january' : 'kept', ...at(`2025-01-${day}`) }),
    );
    await ingestOk(t, 'short', [...january, anEvent({ id: 'edge', ...at('2025-03-05') }), anEvent({ id: 'kept', flow_key: 'kept', ...at('2025-04-01') })]);
    await ingestOk(t, 'long', [anEvent({ id: 'l0', ...at('2025-02-10') })]);
    const before = (await changes(t, 'short', { limit: 1 })).next_cursor;

    clock.set('2025-04-20T00:00:00.000Z'); // short keeps from 2025-03-21 on
    assert.deepEqual(await t.ctx.retention.sweep(), { swept: true, removed: 6 });

    assert.equal(await exists('events_2025_01'), false, 'the month of short alone is dropped');
    assert.equal(await exists('events_2025_02'), true, 'the month that long keeps stays');
    assert.deepEqual(await listIds(t, 'short'), ['kept']);
    assert.deepEqual(await listIds(t, 'long'), ['l0']);
    assert.equal(await count(sql`select count(*) as n from event_ids where company_id = 'short'`), 1);
    assert.equal(await count(sql`select count(*) as n from event_key_values where company_id = 'short' and value = 'only-january'`), 0);
    assert.equal(await count(sql`select count(*) as n from event_key_values where company_id = 'short' and value = 'kept'`), 1);
    const gone = await t.as('short', { method: 'GET', url: `/v1/events/changes?after=${encodeURIComponent(before)}` });
    assert.equal(gone.statusCode, 410, gone.body);
    assert.deepEqual(await t.ctx.retention.sweep(), { swept: true, removed: 0 });
  });
});
