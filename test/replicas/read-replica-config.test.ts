import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.js';

const PRIMARY = 'postgres://wrs@db-primary:5432/wrs';
const STANDBY = 'postgres://wrs@db-standby:5432/wrs';

describe('read replica settings', () => {
  it('are off without WRS_DATABASE_READ_URL', () => {
    assert.equal(loadConfig({ WRS_DATABASE_URL: PRIMARY }).readReplica, undefined);
  });

  it('take the standby URL, its pool size, connect timeout and retry interval', () => {
    const config = loadConfig({
      WRS_DATABASE_URL: PRIMARY,
      WRS_DATABASE_READ_URL: STANDBY,
      WRS_DB_READ_POOL_SIZE: '4',
      WRS_DB_READ_CONNECT_TIMEOUT_MS: '300',
      WRS_DB_READ_RETRY_MS: '2000',
    });
    assert.deepEqual(config.readReplica, { url: STANDBY, poolSize: 4, connectTimeoutMs: 300, retryMs: 2000 });
    assert.deepEqual(loadConfig({ WRS_DATABASE_URL: PRIMARY, WRS_DATABASE_READ_URL: STANDBY }).readReplica, {
      url: STANDBY,
      poolSize: 10,
      connectTimeoutMs: 1000,
      retryMs: 5000,
    });
  });

  it('refuse a standby for a SQLite primary, saying why', () => {
    assert.throws(
      () => loadConfig({ WRS_DATABASE_READ_URL: STANDBY }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.problems.length === 1 &&
        /^WRS_DATABASE_READ_URL: read replicas need a PostgreSQL primary/.test(error.problems[0]!),
    );
  });

  it('refuse a standby URL that is not PostgreSQL', () => {
    assert.throws(
      () => loadConfig({ WRS_DATABASE_URL: PRIMARY, WRS_DATABASE_READ_URL: 'sqlite:/tmp/copy.db' }),
      (error: unknown) => error instanceof ConfigError && error.problems.some((problem) => problem.startsWith('WRS_DATABASE_READ_URL')),
    );
  });
});
