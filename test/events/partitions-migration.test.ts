import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FileMigrationProvider, Migrator, sql } from 'kysely';
import { openDatabase } from '../../src/storage/database.js';
import { EVENT_COLUMNS } from '../../src/storage/tables/events.js';
import { createTestDatabase, PG_URL, type TestDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, filterDataset, ingest, ingestOk } from './event-fixtures.js';

const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../src/storage/migrations');
const COMPANY = 'partition-migration-co';
const OTHER = 'partition-migration-other';

/** Events over many months (near now and long ago), centuries away (DEFAULT), and the filter set. */
function history(): Record<string, unknown>[] {
  const now = Date.now();
  const spread = Array.from({ length: 400 }, (_, i) => {
    const at = new Date(now - i * 5 * 86_400_000 + (i % 3) * 1000).toISOString();
    return anEvent({ id: `pm-${String(i).padStart(4, '0')}`, created_at: at, updated_at: at, flow_key: `flow-${i % 7}`, text: `t${i}` });
  });
  const far = ['1901-02-03T00:00:00.000Z', '2300-04-05T00:00:00.000Z'].map((at, i) => anEvent({ id: `far-${i}`, created_at: at, updated_at: at }));
  return [...spread, ...far, ...filterDataset()];
}

// Migration 0022 makes `events` partitioned on PostgreSQL: a database at 0021 holding events,
// upgraded by starting the service on it, answers the same pages, filters and change feed,
// and a replacement by ID after the upgrade still leaves one event.
describe('events partitioned by the upgrade to migration 0022 [postgres]', { concurrency: 1, skip: PG_URL ? false : 'WRS_TEST_PG_URL is not set' }, () => {
  let today: TestApp;
  let upgraded: TestApp;
  let older: TestDatabase;

  before(async () => {
    today = await createTestApp('postgres');
    await ingestOk(today, COMPANY, history());
    await ingestOk(today, OTHER, [anEvent({ id: 'other-1' })]);
    // Feed positions carry the writer's transaction ids, meaningless in another database: both start from xid 0.
    await sql`update events set feed_xid = '0'`.execute(today.ctx.database.db);

    older = await createTestDatabase('postgres');
    const database = openDatabase(older.url);
    const migrator = new Migrator({ db: database.db, provider: new FileMigrationProvider({ fs, path, migrationFolder: MIGRATIONS }) });
    const { error } = await migrator.migrateTo('0021_records_updated_order');
    assert.equal(error, undefined);
    const columns = [...EVENT_COLUMNS, 'body', 'feed_xid', 'feed_seq'] as const;
    const rows = await today.ctx.database.db.selectFrom('events').select(columns).execute();
    for (let start = 0; start < rows.length; start += 500) {
      await database.db
        .insertInto('events')
        .values(rows.slice(start, start + 500) as never)
        .execute();
    }
    await sql`select setval('events_feed_seq', (select max(feed_seq) from events))`.execute(database.db);
    const keys = await today.ctx.database.db.selectFrom('event_key_values').selectAll().execute();
    await database.db.insertInto('event_key_values').values(keys).execute();
    await database.close();
    upgraded = await createTestApp('postgres', { database: older });
  });
  after(async () => {
    await upgraded?.close();
    await older?.drop();
    await today?.close();
  });

  const bodyOf = async (t: TestApp, url: string, company = COMPANY) => {
    const response = await t.as(company, { method: 'GET', url });
    assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
    return response.body;
  };

  it('stores the events in month partitions and their ids in event_ids', async () => {
    const db = upgraded.ctx.database.db;
    const { rows } = await sql<{ kind: string }>`select relkind::text as kind from pg_class where oid = 'events'::regclass`.execute(db);
    assert.equal(rows[0]!.kind, 'p');
    const { rows: parts } = await sql<{ n: string }>`select count(*) as n from pg_inherits where inhparent = 'events'::regclass`.execute(db);
    assert.ok(Number(parts[0]!.n) > 12, `${parts[0]!.n} partitions`);
    const { rows: counts } = await sql<{ events: number; ids: number }>`select (select count(*)::int from events) as events,
      (select count(*)::int from event_ids) as ids`.execute(db);
    assert.deepEqual(counts[0], { events: history().length + 1, ids: history().length + 1 });
    const { rows: far } = await sql<{ id: string }>`select id from events_default where id like 'far-%' order by id`.execute(db);
    assert.deepEqual(far, [{ id: 'far-0' }, { id: 'far-1' }], 'centuries away live in DEFAULT');
  });

  it('answers the same pages, filters and cursors', async () => {
    const first = JSON.parse(await bodyOf(today, '/v1/events?limit=50')) as { next_cursor?: string; cursor?: string };
    const urls = [
      '/v1/events?limit=50',
      '/v1/events?limit=1000',
      '/v1/events?order_by=id&limit=100&page=2',
      '/v1/events?order_by=-created_at&limit=100&page=3',
      '/v1/events?flow_key=flow-3&limit=1000',
      '/v1/events?flow_key__contains=low-&limit=1000',
      '/v1/events?created_at__gte=2025-01-01T00:00:00.000Z&limit=1000',
      '/v1/event-types',
    ];
    const cursor = first.next_cursor ?? first.cursor;
    if (cursor) urls.push(`/v1/events?limit=50&cursor=${encodeURIComponent(cursor)}`);
    for (const url of urls) assert.equal(await bodyOf(upgraded, url), await bodyOf(today, url), url);
  });

  it('answers the same change feed, page by page', async () => {
    let after = '';
    for (let page = 0; page < 10; page++) {
      const url = `/v1/events/changes?limit=73${after ? `&after=${encodeURIComponent(after)}` : ''}`;
      const expected = JSON.parse(await bodyOf(today, url)) as { results: unknown[]; next_cursor: string };
      const feed = JSON.parse(await bodyOf(upgraded, url)) as { results: unknown[]; next_cursor: string };
      assert.deepEqual(feed, expected, url);
      if (feed.results.length === 0) break;
      after = feed.next_cursor;
    }
  });

  it('migrates back down to one table with its primary key, keeping the events', async () => {
    const scratch = await createTestDatabase('postgres');
    const database = openDatabase(scratch.url);
    try {
      const migrator = new Migrator({ db: database.db, provider: new FileMigrationProvider({ fs, path, migrationFolder: MIGRATIONS }) });
      assert.equal((await migrator.migrateToLatest()).error, undefined);
      await sql`insert into events (company_id, id, created_at, updated_at, excluded, type, body)
        select 'down-co', 'e' || n, at, at, false, 'note', '{}' from (values (1, '1901-01-01T00:00:00.000Z'),
          (2, to_char(now(), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), (3, '2400-01-01T00:00:00.000Z')) as v(n, at)`.execute(database.db);
      assert.equal((await migrator.migrateTo('0021_records_updated_order')).error, undefined);
      const { rows } = await sql<{ kind: string; events: number; ids: string | null; pk: string | null }>`select
        (select relkind::text from pg_class where oid = 'events'::regclass) as kind, (select count(*)::int from events) as events,
        to_regclass('event_ids')::text as ids, (select conname::text from pg_constraint where conname = 'events_pk') as pk`.execute(database.db);
      assert.deepEqual(rows[0], { kind: 'r', events: 3, ids: null, pk: 'events_pk' });
    } finally {
      await database.close();
      await scratch.drop();
    }
  });

  it('replaces an event stored before the upgrade by its ID, leaving one', async () => {
    const response = await ingest(upgraded, COMPANY, [anEvent({ id: 'pm-0005', text: 'replaced', created_at: '2300-01-01T00:00:00.000Z' })]);
    assert.equal(response.statusCode, 200, response.body);
    const { rows } = await sql<{ text: string }>`select text from events where company_id = ${COMPANY} and id = 'pm-0005'`.execute(upgraded.ctx.database.db);
    assert.deepEqual(rows, [{ text: 'replaced' }]);
  });
});
