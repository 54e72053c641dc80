import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { gatheredReadOf } from '../../src/storage/database.js';
import { sqliteQueries, type SqliteQueryMessage } from '../../src/storage/sqlite-query-channel.js';
import { SqliteDatabase } from '../../src/storage/sqlite-driver.js';

// SQLite keeps one writer and one read-only connection: a read outside a transaction must not
// wait for a long write transaction, and writes still happen one at a time.
describe('SQLite reader and writer connections', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wrs-rw-'));
  let database: Database;
  let db: Kysely<any>;
  before(async () => {
    database = openDatabase(`sqlite:${join(dir, 'rw.db')}`);
    db = database.db as Kysely<any>;
    await sql`create table items (company_id text not null, id text not null, primary key (company_id, id))`.execute(db);
    await db.insertInto('items').values({ company_id: 'c', id: 'committed' }).execute();
  });
  after(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ids = async () => (await db.selectFrom('items').select('id').orderBy('id').execute()).map((row) => row.id);

  it('answers reads with the committed state while a write transaction is open', async () => {
    let finishTransaction!: () => void;
    const holding = new Promise<void>((resolve) => (finishTransaction = resolve));
    let inserted!: () => void;
    const insertDone = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ company_id: 'c', id: 'pending' }).execute();
      inserted();
      await holding;
    });
    await insertDone;
    assert.deepEqual(await ids(), ['committed'], 'the uncommitted row is not visible, and the read did not wait');
    const laterWrite = db.insertInto('items').values({ company_id: 'c', id: 'later' }).execute();
    finishTransaction();
    await transaction;
    await laterWrite;
    assert.deepEqual(await ids(), ['committed', 'later', 'pending']);
  });

  it('rolls back a failed transaction and frees the writer', async () => {
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('items').values({ company_id: 'c', id: 'doomed' }).execute();
        throw new Error('abort');
      }),
      /abort/,
    );
    await db.insertInto('items').values({ company_id: 'c', id: 'after-abort' }).execute();
    assert.deepEqual(await ids(), ['after-abort', 'committed', 'later', 'pending']);
  });

  it('reads inside a transaction see its own writes', async () => {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ company_id: 'c', id: 'own' }).execute();
      const seen = await trx.selectFrom('items').select('id').where('id', '=', 'own').execute();
      assert.equal(seen.length, 1);
      await trx.deleteFrom('items').where('id', '=', 'own').execute();
    });
  });

  it('reads in process, later in the turn: a read asked after a write is acknowledged sees it', async () => {
    const read = gatheredReadOf(database.db);
    const query = db.selectFrom('items').select('id').where('id', '=', 'gathered').compile();
    await db.insertInto('items').values({ company_id: 'c', id: 'gathered' }).execute();
    assert.deepEqual(await read(query), [{ id: 'gathered' }]);
    await db.deleteFrom('items').where('id', '=', 'gathered').execute();
    assert.deepEqual(await read(query), []);
    await read(db.insertInto('items').values({ company_id: 'c', id: 'written' }).compile());
    assert.deepEqual(await read(db.selectFrom('items').select('id').where('id', '=', 'written').compile()), [{ id: 'written' }], 'a write goes to the writer');
    await db.deleteFrom('items').where('id', '=', 'written').execute();
  });

  it("runs each gathered read in its caller's context while it is traced", async () => {
    const read = gatheredReadOf(database.db);
    const request = new AsyncLocalStorage<string>();
    const seen: string[] = [];
    const handlers = {
      start: (_message: SqliteQueryMessage) => void seen.push(request.getStore() ?? 'none'),
      end() {},
      asyncStart() {},
      asyncEnd() {},
      error() {},
    };
    sqliteQueries.subscribe(handlers);
    try {
      const query = db.selectFrom('items').select('id').compile();
      await Promise.all(['first', 'second', 'third'].map((name) => request.run(name, () => read(query))));
    } finally {
      sqliteQueries.unsubscribe(handlers);
    }
    assert.deepEqual(seen, ['first', 'second', 'third']);
  });

  it("keeps a small page cache on a snapshot connection, the build's larger one on the shared reader", async () => {
    const cacheSize = sql<{ cache_size: number }>`pragma cache_size`;
    const snapshot = await database.openSnapshot();
    try {
      // KiB, negative: SQLite's own default, not better-sqlite3's 16 MiB kept by every idle connection.
      assert.deepEqual(await snapshot.rows(cacheSize.compile(db)), [{ cache_size: -2000 }]);
    } finally {
      await snapshot.release();
    }
    const fresh = new SqliteDatabase(':memory:');
    const buildDefault = fresh.pragma('cache_size', { simple: true });
    fresh.close();
    assert.deepEqual((await cacheSize.execute(db)).rows, [{ cache_size: buildDefault }]);
  });
});
