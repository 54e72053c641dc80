import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { PG_URL } from '../helpers/databases.js';

// PostgreSQL rows are read as arrays and made into objects by a compiled literal
// (postgres-rows.ts): what Kysely sees must be what `pg`'s own row objects would have been.
describe('PostgreSQL rows read as arrays', { skip: PG_URL ? false : 'WRS_TEST_PG_URL is not set' }, () => {
  let database: Database;
  before(() => {
    database = openDatabase(PG_URL!);
  });
  after(() => database.close());

  it('keys each value by its column, with the types pg parses', async () => {
    const { rows } = await sql<{ n: number; t: string; b: boolean; j: unknown; missing: null }>`
      select 1::int8 as n, 'text' as t, true as b, '{"a":[1]}'::json as j, null as missing`.execute(database.db);
    assert.deepEqual(rows, [{ n: 1, t: 'text', b: true, j: { a: [1] }, missing: null }]);
  });

  it('lets a later column of the same name win, as pg does', async () => {
    const { rows } = await sql<{ x: number }>`select 1 as x, 2 as x`.execute(database.db);
    assert.deepEqual(rows, [{ x: 2 }]);
  });

  it('answers an empty result with no rows, and a write with its count', async () => {
    const { rows } = await sql`select 1 as x where false`.execute(database.db);
    assert.deepEqual(rows, []);
    // One transaction, so the temporary table and the insert share a connection.
    const inserted = await database.db.transaction().execute(async (trx) => {
      await sql`create temporary table rows_probe (id int) on commit drop`.execute(trx);
      return sql`insert into rows_probe values (1), (2)`.execute(trx);
    });
    assert.equal(inserted.numAffectedRows, 2n);
  });

  it('builds many rows of one shape, each its own object', async () => {
    const { rows } = await sql<{ i: number; s: string }>`select i, 'row ' || i as s from generate_series(1, 500) as i`.execute(database.db);
    assert.equal(rows.length, 500);
    assert.deepEqual(rows[499], { i: 500, s: 'row 500' });
    rows[0]!.s = 'changed';
    assert.equal(rows[1]!.s, 'row 2');
  });
});
