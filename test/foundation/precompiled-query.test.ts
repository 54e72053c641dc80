import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { precompiled, precompiledStatement } from '../../src/storage/precompiled-query.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../helpers/databases.js';

// A query compiled once and run with each call's parameters must answer exactly what the same
// query built anew would, whatever order the builder put its parameters in.
describeEachDatabase('precompiled queries', (kind) => {
  let testDatabase: TestDatabase;
  let database: Database;
  let db: Kysely<any>;
  before(async () => {
    testDatabase = await createTestDatabase(kind);
    // One connection, so that the prepared statement seen below is the one the queries used.
    database = openDatabase(testDatabase.url, { poolSize: 1 });
    db = database.db as Kysely<any>;
    await sql`create table items (company_id text not null, id text not null, label text not null, primary key (company_id, id))`.execute(db);
    await db
      .insertInto('items')
      .values([
        { company_id: 'a', id: '1', label: 'a-1' },
        { company_id: 'a', id: '2', label: 'a-2' },
        { company_id: 'b', id: '1', label: 'b-1' },
      ])
      .execute();
  });
  after(async () => {
    await database.close();
    await testDatabase.drop();
  });

  it('binds each call its own parameters, in the places the builder put them', async () => {
    // The builder names the id before the company: the placeholders are found where they landed.
    const item = precompiled<{ label: string }, [string, string]>(
      database.db,
      2,
      (built, companyId, id) =>
        (built as unknown as Kysely<any>).selectFrom('items').select('label').where('id', '=', id!).where('company_id', '=', companyId!) as never,
    );
    assert.deepEqual(await item('a', '2'), [{ label: 'a-2' }]);
    assert.deepEqual(await item('b', '1'), [{ label: 'b-1' }]);
    assert.deepEqual(await item('b', '2'), []);
    assert.deepEqual(await item('a', '1'), [{ label: 'a-1' }]);
  });

  it('refuses a builder that bakes in a value instead of a placeholder', async () => {
    const baked = precompiled<{ label: string }, [string]>(
      database.db,
      1,
      (built, companyId) =>
        (built as unknown as Kysely<any>).selectFrom('items').select('label').where('company_id', '=', companyId!).where('id', '=', '1') as never,
    );
    await assert.rejects(baked('a'), /not a placeholder/);
  });

  if (kind === 'postgres') {
    it('keeps the statement prepared on the connection that ran it', async () => {
      const byId = precompiled<{ label: string }, [string]>(
        database.db,
        1,
        (built, id) => (built as unknown as Kysely<any>).selectFrom('items').select('label').where('id', '=', id!).orderBy('label') as never,
      );
      assert.deepEqual(await byId('1'), [{ label: 'a-1' }, { label: 'b-1' }]);
      assert.deepEqual(await byId('2'), [{ label: 'a-2' }]);
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements where name like 'wrs_%'`.execute(db);
      // The first test's query is prepared on this connection too.
      assert.equal(rows.length, 2);
      assert.ok(
        rows.some((row) => /from "items" where "id" = \$1 order by/.test(row.statement)),
        JSON.stringify(rows),
      );
    });
  }

  it('runs a precompiled write as a write (on SQLite, not on the read-only connection)', async () => {
    const insert = precompiled<never, [string, string, string]>(
      database.db,
      3,
      (built, companyId, id, label) =>
        (built as unknown as Kysely<any>).insertInto('items').values({ company_id: companyId!, id: id!, label: label! }) as never,
    );
    await insert('c', '9', 'written');
    const item = precompiled<{ label: string }, [string]>(
      database.db,
      1,
      (built, companyId) => (built as unknown as Kysely<any>).selectFrom('items').select('label').where('company_id', '=', companyId!) as never,
    );
    assert.deepEqual(await item('c'), [{ label: 'written' }]);
  });

  it('runs a precompiled statement on the transaction it is given: seen inside it, gone with its rollback', async () => {
    const label = precompiledStatement<{ label: string }>(
      database.db,
      2,
      (built, companyId, id) =>
        (built as unknown as Kysely<any>).selectFrom('items').select('label').where('company_id', '=', companyId!).where('id', '=', id!) as never,
    );
    const insert = precompiledStatement<never>(
      database.db,
      3,
      (built, companyId, id, text) => (built as unknown as Kysely<any>).insertInto('items').values({ company_id: companyId!, id: id!, label: text! }) as never,
    );
    const rolledBack = new Error('roll back');
    await assert.rejects(
      database.db.transaction().execute(async (trx) => {
        await insert(trx, ['d', '1', 'inside']);
        assert.deepEqual((await label(trx, ['d', '1'])).rows, [{ label: 'inside' }]);
        throw rolledBack;
      }),
      (error) => error === rolledBack,
    );
    assert.deepEqual((await label(database.db, ['d', '1'])).rows, []);
    await database.db.transaction().execute((trx) => insert(trx, ['d', '2', 'committed']));
    assert.deepEqual((await label(database.db, ['d', '2'])).rows, [{ label: 'committed' }]);
  });
});
