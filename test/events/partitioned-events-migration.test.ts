import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FileMigrationProvider, Migrator, sql } from 'kysely';
import { knownMigrationNames } from '../../src/storage/migrator.js';
import { openDatabase } from '../../src/storage/database.js';
import { EVENT_COLUMNS } from '../../src/storage/tables/events.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, ingestOk, listIds } from './event-fixtures.js';
import { changes } from './feed-fixtures.js';

const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../src/storage/migrations');
const COMPANY = 'partition-co';
const OTHER = 'partition-other';
/** Spread over four months of 2025, and one far ahead. */
const MONTHS = ['2025-09', '2025-10', '2025-11', '2025-12'];

const events = Array.from({ length: 2400 }, (_, i) =>
  anEvent({
    id: `pe-${String(i).padStart(5, '0')}`,
    created_at:
      i === 0 ? '2099-05-01T00:00:00.000Z' : `${MONTHS[i % 4]}-${String(1 + (i % 28)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:00:00.000Z`,
    flow_session: i,
  }),
);

// Migration 0021 turns PostgreSQL's unpartitioned events into monthly partitions (SQLite is left
// as it is): a database holding events in the old layout answers pages and the change feed with
// the same bytes once migrated, and goes on storing, replacing and feeding events.
describeEachDatabase('events partitioned by month, migrated from one table', (kind) => {
  let today: TestApp;
  let upgraded: TestApp;
  let older: TestDatabase;

  before(async () => {
    today = await createTestApp(kind);
    await ingestOk(today, COMPANY, events);
    await ingestOk(today, OTHER, events.slice(0, 50));

    older = await createTestDatabase(kind);
    const database = openDatabase(older.url);
    const before0021 = (await knownMigrationNames()).filter((name) => name < '0021').at(-1)!;
    const migrator = new Migrator({ db: database.db, provider: new FileMigrationProvider({ fs, path, migrationFolder: MIGRATIONS }) });
    const { error } = await migrator.migrateTo(before0021);
    assert.equal(error, undefined);
    const columns = [...EVENT_COLUMNS, 'body', 'feed_seq'] as const;
    const rows = await today.ctx.database.db.selectFrom('events').select(columns).orderBy('feed_seq').execute();
    for (let start = 0; start < rows.length; start += 500) {
      await database.db
        .insertInto('events')
        .values(rows.slice(start, start + 500) as never)
        .execute();
    }
    await sql`insert into data_versions (company_id, version) values (${COMPANY}, 0), (${OTHER}, 0)`.execute(database.db);
    // PostgreSQL's feed positions carry the writer's transaction id, which means nothing in another database.
    if (kind === 'postgres') await sql`update events set feed_xid = '0'`.execute(database.db);
    await database.close();
    upgraded = await createTestApp(kind, { database: older });
  });
  after(async () => {
    await upgraded?.close();
    await older?.drop();
    await today?.close();
  });

  const bodyOf = async (t: TestApp, url: string) => {
    const response = await t.as(COMPANY, { method: 'GET', url });
    assert.equal(response.statusCode, 200, response.body);
    return response.body;
  };

  it('keeps every event: pages, filters and the feed answer as before', async () => {
    for (const url of [
      '/v1/events?limit=10000',
      '/v1/events?order_by=-created_at&limit=100&page=3',
      '/v1/events?order_by=id&limit=1000&page=2',
      '/v1/events?created_at__gte=2025-10-15T00:00:00.000Z&created_at__lt=2025-12-02T00:00:00.000Z&limit=10000',
      '/v1/events?flow_session__gt=2000&limit=100',
    ]) {
      assert.equal(await bodyOf(upgraded, url), await bodyOf(today, url), url);
    }
    // The feed's cursor seals positions of its own database; its events come in the same order.
    const feed = (await changes(upgraded, COMPANY, { limit: 10000 })).results;
    assert.equal(feed.length, events.length);
    assert.deepEqual(feed, (await changes(today, COMPANY, { limit: 10000 })).results);
    if (kind !== 'postgres') return;
    const db = upgraded.ctx.database.db;
    const { rows } = await sql<{ name: string; n: string }>`select child.relname as name,
        (select count(*) from events where tableoid = child.oid) as n
      from pg_inherits join pg_class child on child.oid = pg_inherits.inhrelid where inhparent = 'events'::regclass`.execute(db);
    const held = Object.fromEntries(rows.map((row) => [row.name, Number(row.n)]));
    // Both companies' events of each month (the first event of each is the one of 2099).
    const expected = { '2025-09': 599 + 12, '2025-10': 600 + 13, '2025-11': 600 + 12, '2025-12': 600 + 12 };
    for (const [month, count] of Object.entries(expected)) assert.equal(held[`events_p${month.replace('-', '_')}`], count, month);
    assert.equal(held.events_p2099_05, 2, 'every month the table held gets its partition, even one far ahead');
    assert.equal(held.events_default, 0);
    const identities = await sql<{ n: string }>`select count(*) as n from event_partitions.event_ids`.execute(db);
    assert.equal(Number(identities.rows[0]!.n), events.length + 50);
  });

  it('goes on: new, replaced and moved events reach the feed after its last position, each once', async () => {
    const cursor = (await changes(upgraded, COMPANY, { limit: 10000 })).next_cursor;
    await ingestOk(upgraded, COMPANY, [
      anEvent({ id: 'pe-new', created_at: '2025-11-05T00:00:00.000Z' }),
      // The same created_at: replaced in place; another month: moved to that month's partition.
      { ...events[1]!, text: 'replaced' },
      { ...events[2]!, created_at: '2025-09-30T00:00:00.000Z', text: 'moved' },
    ]);
    const fed = await changes(upgraded, COMPANY, { after: cursor, limit: 100 });
    assert.deepEqual(
      fed.results.map((event) => event.id),
      ['pe-new', 'pe-00001', 'pe-00002'],
    );
    const ids = await listIds(upgraded, COMPANY, 'order_by=id&limit=10000');
    assert.equal(ids.length, events.length + 1);
    assert.equal(new Set(ids).size, ids.length, 'each id once');
    const moved = await upgraded.as(COMPANY, { method: 'GET', url: '/v1/events?created_at__lt=2025-10-01T00:00:00.000Z&limit=10000' });
    assert.ok((moved.json().results as { id: string; text: string }[]).some((event) => event.id === 'pe-00002' && event.text === 'moved'));
  });
});
