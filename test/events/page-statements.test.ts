import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import type { EventListQuery } from '../../src/domain/events/event-query.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { createDataVersionsRepository } from '../../src/storage/repositories/data-versions-repository.js';
import { createEventsRepository } from '../../src/storage/repositories/events-repository.js';
import { createFastEventPageReads } from '../../src/fast-path/event-page-reads.js';
import { createUnitOfWork } from '../../src/storage/unit-of-work.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../helpers/databases.js';

// How an events page reaches the database: on PostgreSQL the shapes whose plan cannot depend
// on the values are kept prepared (not planned again at each request), and every other shape is
// planned for its values; on both databases each page answers what its query asks.
describeEachDatabase('events page statements', (kind) => {
  const C = 'acme';
  let testDatabase: TestDatabase;
  let database: Database;
  const events = () => createEventsRepository(database);
  // The pages of the fast path (src/fast-path/), which reads each with its data version.
  const pages = () => createFastEventPageReads(database);
  const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
  const event = (i: number) => ({
    id: `e${i}`,
    company_id: C,
    connection_id: null,
    connection_key: null,
    created_at: at(i),
    excluded: false,
    flow_id: null,
    flow_key: i % 2 === 0 ? 'even' : 'odd',
    flow_session: i,
    like_value: null,
    seconds_active: null,
    seconds_running: null,
    selected_decision: null,
    step_key: null,
    text: null,
    type: 'step_completed',
    updated_at: at(i),
    user_id: null,
    version_id: null,
    version_key: null,
    version_object: null,
  });
  const page = (filters: EventListQuery['filters'], limit = 3, offset = 0): EventListQuery => ({
    filters,
    order: { field: 'created_at', direction: 'asc' },
    limit,
    offset,
  });
  const ids = async (query: EventListQuery) => (await pages().list(C, query)).events.map((body) => (JSON.parse(body) as { id: string }).id);

  before(async () => {
    testDatabase = await createTestDatabase(kind);
    // One connection, so that the prepared statements seen below are the ones the pages used.
    database = openDatabase(testDatabase.url, { poolSize: 1 });
    await migrateToLatest(database.db);
    const repository = events();
    await createUnitOfWork(database.db).run(async (scope) => {
      await repository.write(
        await repository.prepare(
          C,
          Array.from({ length: 10 }, (_, i) => event(i)),
        ),
        scope,
      );
      await createDataVersionsRepository(database.db).bump(scope, C);
    });
  });
  after(async () => {
    await database.close();
    await testDatabase.drop();
  });

  it('answers each page as its query asks, read again and again and with other values', async () => {
    for (let round = 0; round < 7; round++) {
      assert.deepEqual(await ids(page([{ field: 'flow_key', operator: 'eq', value: 'even' }])), ['e0', 'e2', 'e4']);
      assert.deepEqual(await ids(page([{ field: 'flow_key', operator: 'eq', value: 'odd' }])), ['e1', 'e3', 'e5']);
      assert.deepEqual(await ids(page([{ field: 'flow_key', operator: 'eq', value: 'odd' }], 2)), ['e1', 'e3']);
      assert.deepEqual(await ids(page([{ field: 'flow_key', operator: 'eq', value: 'none' }])), []);
      assert.deepEqual(await ids(page([], 4)), ['e0', 'e1', 'e2', 'e3']);
      assert.deepEqual(await ids(page([{ field: 'flow_session', operator: 'gt', value: 6 }])), ['e7', 'e8', 'e9']);
    }
    const { version, events: none } = await pages().list(C, page([{ field: 'flow_key', operator: 'eq', value: 'none' }]));
    assert.deepEqual(none, []);
    assert.ok(version > 0, 'an empty page still carries the version of the data it was read at');
    assert.equal(version, (await pages().list(C, page([]))).version);
  });

  if (kind === 'postgres') {
    it('keeps prepared only the shapes whose plan is the same for every value, and exact filters read in arms', async () => {
      const prepared = async () => {
        const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements where statement like '%from "events"%'`.execute(
          database.db,
        );
        return rows.map((row) => row.statement);
      };
      // The month bounds are read once in the background: until then an exact filter is planned for its value.
      let statements: string[] = [];
      for (let tries = 0; tries < 100 && !statements.some((text) => text.includes('"flow_key" =')); tries++) {
        await ids(page([{ field: 'flow_key', operator: 'eq', value: 'even' }]));
        await ids(page([{ field: 'flow_session', operator: 'gt', value: 6 }]));
        statements = await prepared();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // On month partitions a cached plan of an exact filter over the whole table sorts every matching
      // row of every month: it is kept only read in arms, each bounded to one month.
      const exact = statements.filter((text) => text.includes('"flow_key" ='));
      assert.ok(exact.length > 0, `an exact filter read in arms is kept prepared: ${JSON.stringify(statements)}`);
      for (const text of exact) assert.ok(text.includes('union all') && text.includes(`"created_at" < '`), `in arms: ${text}`);
      assert.ok(
        statements.some((text) => /^select "id", "created_at", "body", .* order by .* limit 4 offset \$3/.test(text)),
        'no filter: prepared',
      );
      assert.ok(!statements.some((text) => text.includes('"flow_session" >')), 'a range is planned for its values');
    });
  }
});
