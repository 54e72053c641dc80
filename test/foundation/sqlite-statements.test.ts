import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { compileOnce } from '../../src/storage/precompiled-query.js';

// How queries reach SQLite: an integer LIMIT is written into the SQL (a bound one makes SQLite
// prepare the statement again at every run), and a statement of one column is read as plain values.
describe('SQLite statements', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wrs-statements-'));
  let database: Database;
  let db: Kysely<any>;
  before(async () => {
    database = openDatabase(`sqlite:${join(dir, 'statements.db')}`);
    db = database.db as Kysely<any>;
    await sql`create table items (company_id text not null, id text not null, rank integer, primary key (company_id, id))`.execute(db);
    for (const [id, rank] of [
      ['a', 3],
      ['b', 1],
      ['c', 2],
    ] as const)
      await db.insertInto('items').values({ company_id: 'c', id, rank }).execute();
  });
  after(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes an integer LIMIT into the SQL and keeps OFFSET and every other value bound', () => {
    const compiled = db.selectFrom('items').select('id').where('company_id', '=', 'c').orderBy('rank').limit(2).offset(1).compile();
    assert.match(compiled.sql, /limit 2 offset \?$/);
    assert.deepEqual(compiled.parameters, ['c', 1]);
  });

  it('binds a LIMIT that is not an integer value: a precompiled placeholder stays a parameter', () => {
    const once = compileOnce<{ id: string }>(2, (company, limit) =>
      db
        .selectFrom('items')
        .select('id')
        .where('company_id', '=', company!)
        .orderBy('rank')
        .limit(limit as never),
    );
    assert.match(once.query.sql, /limit \?$/);
    assert.deepEqual(once.bind(['c', 2]).parameters, ['c', 2]);
  });

  it('reads the same rows with a literal LIMIT, run after run', async () => {
    for (const limit of [1, 2, 3, 2]) {
      const rows = await db.selectFrom('items').select('id').where('company_id', '=', 'c').orderBy('rank').limit(limit).execute();
      assert.deepEqual(
        rows.map((row) => row.id),
        ['b', 'c', 'a'].slice(0, limit),
      );
    }
  });

  it('reads a statement of one column as objects, and the same statement of more columns after it', async () => {
    const one = () => db.selectFrom('items').select('id').where('company_id', '=', 'c').orderBy('id').execute();
    assert.deepEqual(await one(), [{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
    const two = await db.selectFrom('items').select(['id', 'rank']).where('company_id', '=', 'c').orderBy('id').execute();
    assert.deepEqual(two, [
      { id: 'a', rank: 3 },
      { id: 'b', rank: 1 },
      { id: 'c', rank: 2 },
    ]);
    assert.deepEqual(await one(), [{ id: 'a' }, { id: 'b' }, { id: 'c' }], 'the cached statement was left reading whole rows');
    const single = await db.selectFrom('items').select('rank').where('id', '=', 'b').executeTakeFirst();
    assert.deepEqual(single, { rank: 1 });
  });
});
