import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createAppContext, type AppContext } from '../../src/app-context.js';
import { loadConfig } from '../../src/config/config.js';
import { buildApp } from '../../src/http/app.js';
import { SQLITE_DRIVER_MODULE } from '../../src/storage/sqlite-driver.js';
import { createTestDatabase, PG_URL, type TestDatabase } from '../helpers/databases.js';
import { createTestApp, signUserToken, TEST_ADMIN_TOKEN, TEST_JWT_SECRET, type TestApp } from '../helpers/test-app.js';
import { TcpProxy, type ProxyMode } from './helpers/tcp-proxy.js';

function assertUnavailable(response: LightMyRequestResponse, what: string): void {
  assert.equal(response.statusCode, 503, `${what}: ${response.body}`);
  assert.equal(response.json().code, 'service_unavailable');
  assert.equal(response.headers['retry-after'], '1');
  assert.equal(typeof response.json().request_id, 'string');
}

describe('PostgreSQL unreachable, through a TCP proxy the test controls', { skip: PG_URL ? false : 'WRS_TEST_PG_URL is not set' }, () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let ctx: AppContext;
  let app: FastifyInstance;
  let authorization: string;

  before(
    async () => {
      database = await createTestDatabase('postgres');
      const direct = new URL(database.url);
      proxy = new TcpProxy(direct.hostname, Number(direct.port || 5432));
      await proxy.start();
      const proxied = new URL(database.url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(proxy.port);
      const config = loadConfig({
        NODE_ENV: 'test',
        WRS_DATABASE_URL: proxied.toString(),
        WRS_JWT_SECRET: TEST_JWT_SECRET,
        WRS_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        WRS_ENCRYPTION_KEY: '00'.repeat(32),
        WRS_LOG_LEVEL: 'silent',
        WRS_RATE_LIMIT_PER_MINUTE: '0',
        WRS_RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '0',
        WRS_DB_POOL_SIZE: '2',
        WRS_DB_CONNECT_TIMEOUT_MS: '1000',
        WRS_DB_STATEMENT_TIMEOUT_MS: '1000',
      });
      ctx = await createAppContext(config);
      app = await buildApp(ctx, { logger: false });
      await app.ready();
      authorization = `Bearer ${await signUserToken({ company_id: 'acme', sub: 'u1' })}`;
      const defined = await app.inject({
        method: 'PUT',
        url: '/admin/v1/companies/acme/record-types/task',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
        payload: { name: 'Task' },
      });
      assert.ok(defined.statusCode < 300, defined.body);
      const created = await app.inject({ method: 'POST', url: '/v1/records/task', headers: { authorization }, payload: {} });
      assert.equal(created.statusCode, 201, created.body);
    },
    { timeout: 180_000 },
  );

  after(
    async () => {
      await proxy.set('open');
      await app.close();
      await ctx.close();
      await proxy.close();
      await database.drop();
    },
    { timeout: 180_000 },
  );

  const ready = () => app.inject({ method: 'GET', url: '/readyz' });
  const listRecords = () => app.inject({ method: 'GET', url: '/v1/records', headers: { authorization } });

  async function assertServing(): Promise<void> {
    // More requests than pooled connections, so that every connection the pool keeps is used.
    for (let i = 0; i < 3; i++) {
      const readiness = await ready();
      assert.equal(readiness.statusCode, 200, readiness.body);
      const listed = await listRecords();
      assert.equal(listed.statusCode, 200, listed.body);
      assert.equal(listed.json().count, 1);
    }
  }

  it('serves through the proxy', { timeout: 180_000 }, assertServing);

  const faults: [ProxyMode, string][] = [
    ['refuse', 'connections refused'],
    ['blackhole', 'connections accepted and never answered'],
    ['drop', 'open connections that stop carrying anything (a partition)'],
  ];
  for (const [mode, description] of faults) {
    it(`answers 503 without hanging when ${description}, and recovers by itself`, { timeout: 180_000 }, async () => {
      await proxy.set(mode);
      assertUnavailable(await ready(), '/readyz');
      assertUnavailable(await listRecords(), 'GET /v1/records');
      assertUnavailable(await listRecords(), 'GET /v1/records again');
      await proxy.set('open');
      await assertServing();
    });
  }
});

/** Holds SQLite's write lock from another connection (its own thread), like another process would. */
async function holdWriteLock(path: string, holdMs?: number): Promise<{ release(): Promise<void> }> {
  const worker = new Worker(
    `
    const { parentPort, workerData } = require('node:worker_threads');
    const Database = require(workerData.driver);
    const db = new Database(workerData.path);
    db.exec('CREATE TABLE IF NOT EXISTS lock_holder (n INTEGER)');
    db.exec('BEGIN IMMEDIATE');
    db.prepare('INSERT INTO lock_holder VALUES (1)').run();
    const release = () => { db.exec('COMMIT'); db.close(); parentPort.postMessage('released'); };
    if (workerData.holdMs !== undefined) setTimeout(release, workerData.holdMs);
    else parentPort.once('message', release);
    parentPort.postMessage('locked');
    `,
    { eval: true, workerData: { path, holdMs, driver: SQLITE_DRIVER_MODULE } },
  );
  const messages: string[] = [];
  const waiters: (() => void)[] = [];
  worker.on('message', (message: string) => {
    messages.push(message);
    for (const wake of waiters.splice(0)) wake();
  });
  const waitFor = (message: string) =>
    new Promise<void>((resolve, reject) => {
      worker.once('error', reject);
      const check = () => (messages.includes(message) ? resolve() : waiters.push(check));
      check();
    });
  await waitFor('locked');
  return {
    async release() {
      if (!messages.includes('released')) {
        if (holdMs === undefined) worker.postMessage('release');
        await waitFor('released');
      }
      await worker.terminate();
    },
  };
}

describe('SQLite busy or locked', () => {
  describe('within the busy timeout', () => {
    let t: TestApp;
    let recordId: string;
    before(async () => {
      t = await createTestApp('sqlite', { env: { WRS_SQLITE_BUSY_TIMEOUT_MS: '10000' } });
      await t.admin({ method: 'PUT', url: '/admin/v1/companies/acme/record-types/task', payload: { name: 'Task', statuses: ['open', 'done'] } });
      const created = await t.as('acme', { method: 'POST', url: '/v1/records/task', payload: {} });
      assert.equal(created.statusCode, 201, created.body);
      recordId = created.json().id;
    });
    after(() => t.close());

    it('waits for another writer, also in a transaction that reads before it writes', async () => {
      const lock = await holdWriteLock(t.database.url.slice('sqlite:'.length), 400);
      // The update reads the record and then writes it. With a deferred BEGIN its read snapshot
      // would be stale once the other writer commits, and SQLite would refuse at once.
      const updated = await t.as('acme', { method: 'PATCH', url: `/v1/records/${recordId}`, payload: { status: 'done' } });
      await lock.release();
      assert.equal(updated.statusCode, 200, updated.body);
      assert.equal(updated.json().status, 'done');
    });
  });

  describe('past the busy timeout', () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp('sqlite', { env: { WRS_SQLITE_BUSY_TIMEOUT_MS: '100' } });
    });
    after(() => t.close());

    it('answers 503 service_unavailable with Retry-After, and writes again once the lock is gone', async () => {
      const put = () => t.admin({ method: 'PUT', url: '/admin/v1/companies/acme/record-types/task', payload: { name: 'Task' } });
      const defined = await put();
      assert.ok(defined.statusCode < 300, defined.body);
      const lock = await holdWriteLock(t.database.url.slice('sqlite:'.length));
      try {
        assertUnavailable(await put(), 'PUT record type while locked');
        assertUnavailable(await t.as('acme', { method: 'POST', url: '/v1/records/task', payload: {} }), 'POST record while locked');
      } finally {
        await lock.release();
      }
      const written = await put();
      assert.ok(written.statusCode === 200 || written.statusCode === 201, written.body);
    });
  });
});
