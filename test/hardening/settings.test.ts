import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.js';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('operations settings', () => {
  it('has defaults that leave a long streaming ingest alone', () => {
    const config = loadConfig({});
    assert.deepEqual(config.server, {
      workers: 1,
      requestTimeoutMs: 600_000,
      headersTimeoutMs: 30_000,
      connectionTimeoutMs: 120_000,
      keepAliveTimeoutMs: 72_000,
      shutdownTimeoutMs: 25_000,
      shutdownDrainMs: 0,
      heapGrowthPercent: 50,
      allocationSitePretenuring: false,
    });
    assert.deepEqual(config.rateLimit, { perCompanyPerMinute: 6000, perAddressPerMinute: 600, perRecordTokenPerMinute: 120, redis: null });
    assert.deepEqual(config.browser, { corsOrigins: [], hstsMaxAgeSeconds: 0 });
    assert.deepEqual(config.database, { poolSize: 10, connectTimeoutMs: 5000, statementTimeoutMs: 60_000, sqliteBusyTimeoutMs: 5000 });
    assert.ok(Object.isFrozen(config.server) && Object.isFrozen(config.browser.corsOrigins));
  });

  it('reads workers, limits and origins', () => {
    const config = loadConfig({
      WRS_WORKERS: 'auto',
      WRS_RATE_LIMIT_PER_MINUTE: '0',
      WRS_CORS_ORIGINS: 'https://app.example.com, http://localhost:3000/',
    });
    assert.equal(config.server.workers, availableParallelism());
    assert.equal(config.rateLimit.perCompanyPerMinute, 0);
    assert.deepEqual(config.browser.corsOrigins, ['https://app.example.com', 'http://localhost:3000']);
    assert.equal(loadConfig({ WRS_WORKERS: '4' }).server.workers, 4);
  });

  it('reads the shared Redis of the rate limits, with its key prefix and timeout', () => {
    assert.deepEqual(loadConfig({ WRS_REDIS_URL: 'redis://:secret@10.0.0.5:6380/2' }).rateLimit.redis, {
      url: 'redis://:secret@10.0.0.5:6380/2',
      prefix: 'wrs',
      timeoutMs: 250,
    });
    const tls = loadConfig({ WRS_REDIS_URL: 'rediss://cache.example.com', WRS_REDIS_PREFIX: 'wrs-staging', WRS_REDIS_TIMEOUT_MS: '50' });
    assert.deepEqual(tls.rateLimit.redis, { url: 'rediss://cache.example.com', prefix: 'wrs-staging', timeoutMs: 50 });
  });

  it('refuses a Redis URL it cannot use, without repeating its password', () => {
    for (const url of ['localhost:6379', 'http://127.0.0.1:6379', 'redis://', 'redis://:hunter2@127.0.0.1/not-a-db']) {
      const problems = problemsOf({ WRS_REDIS_URL: url });
      assert.deepEqual(
        problems.map((p) => p.split(':')[0]),
        ['WRS_REDIS_URL'],
        url,
      );
      assert.ok(!problems[0]!.includes('hunter2'));
    }
    assert.deepEqual(
      problemsOf({ WRS_REDIS_PREFIX: 'two words', WRS_REDIS_TIMEOUT_MS: '0' }).map((p) => p.split(':')[0]),
      ['WRS_REDIS_PREFIX', 'WRS_REDIS_TIMEOUT_MS'],
    );
  });

  it('refuses bad values, naming each', () => {
    assert.deepEqual(
      problemsOf({ WRS_WORKERS: '0' }).map((p) => p.split(':')[0]),
      ['WRS_WORKERS'],
    );
    assert.deepEqual(
      problemsOf({ WRS_RATE_LIMIT_PER_MINUTE: '-1' }).map((p) => p.split(':')[0]),
      ['WRS_RATE_LIMIT_PER_MINUTE'],
    );
    assert.deepEqual(
      problemsOf({ WRS_HEAP_GROWTH_PERCENT: '12.5' }).map((p) => p.split(':')[0]),
      ['WRS_HEAP_GROWTH_PERCENT'],
    );
    assert.equal(loadConfig({ WRS_HEAP_GROWTH_PERCENT: '0' }).server.heapGrowthPercent, 0);
    assert.deepEqual(problemsOf({ WRS_HEADERS_TIMEOUT_MS: '5000', WRS_REQUEST_TIMEOUT_MS: '1000' }), [
      'WRS_HEADERS_TIMEOUT_MS: must not exceed WRS_REQUEST_TIMEOUT_MS',
    ]);
    const origins = problemsOf({ WRS_CORS_ORIGINS: 'https://ok.example.com,*,https://x.example.com/path,ftp://files.example.com' });
    assert.equal(origins.length, 3);
    assert.ok(origins.every((problem) => problem.startsWith('WRS_CORS_ORIGINS:')));
  });
});

describe('page cache settings', () => {
  it('keeps 16 MiB of pages of at most 256 KiB by default; 0 turns it off', () => {
    assert.deepEqual(loadConfig({}).pageCache, { totalBytes: 16_777_216, maxPageBytes: 262_144 });
    assert.deepEqual(loadConfig({ WRS_PAGE_CACHE_BYTES: '0', WRS_PAGE_CACHE_MAX_PAGE_BYTES: '1024' }).pageCache, {
      totalBytes: 0,
      maxPageBytes: 1024,
    });
  });

  it('refuses a negative bound and an empty page bound', () => {
    assert.deepEqual(
      problemsOf({ WRS_PAGE_CACHE_BYTES: '-1', WRS_PAGE_CACHE_MAX_PAGE_BYTES: '0' }).map((p) => p.split(':')[0]),
      ['WRS_PAGE_CACHE_BYTES', 'WRS_PAGE_CACHE_MAX_PAGE_BYTES'],
    );
  });
});
