import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { keepPrepared, openDatabase, type Database } from '../../src/storage/database.js';
import { PG_URL } from '../helpers/databases.js';

// A kept SQL text runs as a named prepared statement (pg's `name`), prepared once per connection.
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
      Array.from({ length: 6 }, (_, i) =>
        database.db.executeQuery({ sql: text, parameters: [`r${i}`, i], query: { kind: 'RawNode' } as never, queryId: { queryId: `q${i}` } }),
      ),
    );
    assert.deepEqual(unnamed.rows, [{ id: 'a', twice: 42 }]);
    assert.deepEqual(
      named.map((result) => result.rows),
      Array.from({ length: 6 }, (_, i) => [{ id: `r${i}`, twice: 2 * i }]),
    );
  });
});
