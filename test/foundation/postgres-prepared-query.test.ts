import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { PreparedQuery } from '../../src/storage/postgres-prepared-query.js';
import { keepPrepared } from '../../src/storage/prepared-statements.js';
import { PG_URL } from '../helpers/databases.js';

// A named prepared statement runs through postgres-prepared-query.ts: its columns are
// described on its first run on a connection only, and each run answers what `pg`'s own query
// object would have.
describe('PostgreSQL prepared statements run without describing them again', { skip: PG_URL ? false : 'WRS_TEST_PG_URL is not set' }, () => {
  let client: pg.Client;
  let described: number;
  before(async () => {
    client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    const connection = (client as unknown as { connection: { describe: (...args: unknown[]) => void } }).connection;
    const describe = connection.describe.bind(connection);
    connection.describe = (...args) => {
      described++;
      describe(...args);
    };
  });
  after(() => client.end());

  const TYPED = `select $1::int8 as n, $2::text as t, $3::boolean as b, $4::jsonb as j, $5::text as missing, $6::timestamptz as at`;
  const typedValues = [7, 'text', true, JSON.stringify({ a: [1] }), null, new Date('2026-11-28T00:00:00.000Z')];

  it('reads the same typed row on every run, describing the columns only on the first', async () => {
    described = 0;
    const first = await PreparedQuery.run(client, TYPED, 'wrs_test_typed', typedValues);
    const second = await PreparedQuery.run(client, TYPED, 'wrs_test_typed', typedValues);
    const third = await PreparedQuery.run(client, TYPED, 'wrs_test_typed', [8, 'other', false, '[]', 'here', null]);
    const expected = { n: 7, t: 'text', b: true, j: { a: [1] }, missing: null, at: new Date('2026-11-28T00:00:00.000Z') };
    assert.deepEqual(first.rows, [expected]);
    assert.deepEqual(second.rows, [expected]);
    assert.deepEqual(third.rows, [{ n: 8, t: 'other', b: false, j: [], missing: 'here', at: null }]);
    assert.equal(described, 1, 'the columns were described once');
    assert.deepEqual(await client.query({ text: TYPED, values: typedValues }).then((result) => result.rows), [expected]);
  });

  it('answers no rows, and a write its command and count, on first and later runs', async () => {
    await client.query('create temporary table prepared_probe (id int)');
    const insert = 'insert into prepared_probe select generate_series(1, $1::int)';
    assert.deepEqual(await PreparedQuery.run(client, insert, 'wrs_test_insert', [3]), { command: 'INSERT', rowCount: 3, rows: [] });
    assert.deepEqual(await PreparedQuery.run(client, insert, 'wrs_test_insert', [2]), { command: 'INSERT', rowCount: 2, rows: [] });
    const update = 'update prepared_probe set id = id + 10 where id <= $1';
    assert.deepEqual(await PreparedQuery.run(client, update, 'wrs_test_update', [1]), { command: 'UPDATE', rowCount: 2, rows: [] });
    assert.deepEqual(await PreparedQuery.run(client, update, 'wrs_test_update', [3]), { command: 'UPDATE', rowCount: 3, rows: [] });
    const select = 'select id from prepared_probe where id > $1 order by id';
    assert.deepEqual((await PreparedQuery.run(client, select, 'wrs_test_select', [100])).rows, []);
    assert.deepEqual((await PreparedQuery.run(client, select, 'wrs_test_select', [10])).rows, [{ id: 11 }, { id: 11 }, { id: 12 }, { id: 12 }, { id: 13 }]);
  });

  it('rejects a failing run and keeps the connection and the statement usable', async () => {
    const divide = 'select 10 / $1::int as q';
    await assert.rejects(PreparedQuery.run(client, divide, 'wrs_test_divide', [0]), /division by zero/);
    assert.deepEqual((await PreparedQuery.run(client, divide, 'wrs_test_divide', [5])).rows, [{ q: 2 }]);
    await assert.rejects(PreparedQuery.run(client, divide, 'wrs_test_divide', [0]), /division by zero/);
    assert.deepEqual((await PreparedQuery.run(client, divide, 'wrs_test_divide', [2])).rows, [{ q: 5 }]);
    await assert.rejects(PreparedQuery.run(client, 'select from nowhere at all', 'wrs_test_bad', []), /syntax error/);
    await assert.rejects(PreparedQuery.run(client, 'select $1::int as x', 'wrs_test_bad_value', ['not a number']), /invalid input syntax/);
    assert.deepEqual((await PreparedQuery.run(client, 'select $1::int as x', 'wrs_test_bad_value', ['4'])).rows, [{ x: 4 }]);
    const unsendable = { toPostgres: () => { throw new Error('this value cannot be sent'); } };
    await assert.rejects(PreparedQuery.run(client, 'select $1::text as y', 'wrs_test_unsendable', [unsendable]), /cannot be sent/);
    assert.deepEqual((await PreparedQuery.run(client, 'select $1::text as y', 'wrs_test_unsendable', ['sent'])).rows, [{ y: 'sent' }]);
    assert.deepEqual((await client.query('select 1 as one')).rows, [{ one: 1 }]);
  });
});

describe('Kept statements through the database', { skip: PG_URL ? false : 'WRS_TEST_PG_URL is not set' }, () => {
  let database: Database;
  before(() => {
    database = openDatabase(PG_URL!, { poolSize: 2 });
  });
  after(() => database.close());

  it('answers the same rows as the statement run unnamed, on every connection of the pool', async () => {
    const text = 'select $1::text as id, $2::int8 * 2 as twice';
    const unnamed = await database.db.executeQuery({ sql: text, parameters: ['a', 21], query: { kind: 'RawNode' } as never, queryId: { queryId: 'x' } });
    keepPrepared(text);
    const named = await Promise.all(
      Array.from({ length: 6 }, (_, i) => database.db.executeQuery({ sql: text, parameters: [`r${i}`, i], query: { kind: 'RawNode' } as never, queryId: { queryId: `q${i}` } })),
    );
    assert.deepEqual(unnamed.rows, [{ id: 'a', twice: 42 }]);
    assert.deepEqual(named.map((result) => result.rows), Array.from({ length: 6 }, (_, i) => [{ id: `r${i}`, twice: 2 * i }]));
  });
});
