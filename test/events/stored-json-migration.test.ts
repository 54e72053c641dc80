import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FileMigrationProvider, Migrator, sql } from 'kysely';
import { openDatabase } from '../../src/storage/database.js';
import { EVENT_COLUMNS } from '../../src/storage/tables/events.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, ingest } from './event-fixtures.js';

const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../src/storage/migrations');
const COMPANY = 'stored-json-co';
/** More than one batch of the migration's backfill (5,000). */
const EVENTS = 6200;

/** Events with what JSON writes in more than one way: numbers, escapes, nested and absent version_object. */
const events = Array.from({ length: EVENTS }, (_, i) =>
  anEvent({
    id: `sj-${String(i).padStart(5, '0')}`,
    excluded: i % 3 === 0,
    flow_session: i % 9 === 0 ? null : i,
    like_value: [null, 1 / 3, 1e-7, 1e21, -0.5][i % 5],
    seconds_active: i % 7 === 0 ? 373 : i / 8,
    text: i % 4 === 0 ? `"quoted" \\ \n\t\u0001 \u00e9\u{1f600}\u2028 ${i}` : null,
    version_object: [undefined, null, { n: i, nested: { a: [1, 2.5, 'x'] } }, 'text', 1e-7][i % 5],
  }),
);

// Migration 0010 gives every event stored before it its JSON (the `body` column). An event
// stored by an older version and filled in by the migration answers with the very bytes of the
// same event stored today.
describeEachDatabase('stored event JSON filled in for events stored before it', (kind) => {
  let today: TestApp;
  let upgraded: TestApp;
  let older: TestDatabase;

  before(async () => {
    today = await createTestApp(kind);
    const response = await ingest(today, COMPANY, events as never, 'ndjson');
    assert.equal(response.statusCode, 200, response.body);

    // The same rows, in a database at the migration before 0010, then upgraded by starting the service on it.
    older = await createTestDatabase(kind);
    const database = openDatabase(older.url);
    const migrator = new Migrator({ db: database.db, provider: new FileMigrationProvider({ fs, path, migrationFolder: MIGRATIONS }) });
    const { error } = await migrator.migrateTo('0009_webhooks');
    assert.equal(error, undefined);
    const columns = [...EVENT_COLUMNS, 'feed_seq'] as const;
    const rows = await today.ctx.database.db.selectFrom('events').select(columns).where('company_id', '=', COMPANY).execute();
    for (let start = 0; start < rows.length; start += 500) {
      // The schema before 0010 has no body; on PostgreSQL feed_xid takes its default.
      await database.db
        .insertInto('events')
        .values(rows.slice(start, start + 500) as never)
        .execute();
    }
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

  it('answers pages with the bytes of the events stored today', async () => {
    for (const url of [
      '/v1/events?order_by=id&limit=1000&page=1',
      '/v1/events?order_by=id&limit=1000&page=7',
      '/v1/events?order_by=-like_value&limit=10000',
      `/v1/events?flow_session__gt=100&limit=100`,
    ]) {
      const expected = await bodyOf(today, url);
      assert.equal(await bodyOf(upgraded, url), expected, url);
    }
    const page = JSON.parse(await bodyOf(upgraded, '/v1/events?order_by=id&limit=10000')) as { count: number; results: { id: string }[] };
    assert.equal(page.count, EVENTS);
  });

  it('answers the change feed with the same events', async () => {
    const feed = JSON.parse(await bodyOf(upgraded, '/v1/events/changes?limit=10000')) as { results: unknown[] };
    const expected = JSON.parse(await bodyOf(today, '/v1/events/changes?limit=10000')) as { results: unknown[] };
    assert.equal(feed.results.length, EVENTS);
    assert.deepEqual(feed.results, expected.results);
  });

  it('leaves no event without its JSON', async () => {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from events where body is null or body = ''`.execute(upgraded.ctx.database.db);
    assert.equal(Number(rows[0]!.n), 0);
  });
});
