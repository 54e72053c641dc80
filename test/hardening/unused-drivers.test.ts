import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, it } from 'node:test';
import { createTestDatabase, describeEachDatabase, type DatabaseKind } from '../helpers/databases.js';
import { TEST_ADMIN_TOKEN } from '../helpers/test-app.js';
import { REDIS_URL, requireRedis } from '../ratelimit/redis-apps.js';
import { httpRequest } from './helpers/http.js';
import { startServer } from './helpers/server-process.js';

const PROBE = fileURLToPath(new URL('../helpers/loaded-packages-probe.mjs', import.meta.url));
const POSTGRES_PACKAGES = ['pg', 'pg-copy-streams', 'pg-pool', 'pg-protocol'];
/** Loaded only by the deployments or commands that use them: Redis-counted limits, `wrs copy-database`, pretty logs. */
const OPTIONAL_PACKAGES = ['cli-progress', 'ioredis', 'pino-pretty'];

/**
 * Serves a few requests that read and write the database (a token, the webhooks list, a page of
 * events), stops with SIGTERM, and answers the CommonJS packages the process loaded.
 */
async function packagesLoadedServing(env: Record<string, string>, packagesFile: string): Promise<string[]> {
  const server = await startServer({ ...env, NODE_OPTIONS: `--import ${PROBE}`, WRS_TEST_LOADED_PACKAGES_FILE: packagesFile });
  try {
    await server.waitForLog((line) => String(line.msg).startsWith('Server listening'), 'the server to listen');
    const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
    const issued = await httpRequest(server.port, 'POST', '/admin/v1/tokens', {
      headers: admin,
      body: { company_id: 'acme', user_id: 'u1', expires_in: 60 },
    });
    assert.equal(issued.status, 201, issued.body);
    const webhooks = await httpRequest(server.port, 'GET', '/admin/v1/companies/acme/webhooks', { headers: admin });
    assert.equal(webhooks.status, 200, webhooks.body);
    const events = await httpRequest(server.port, 'GET', '/v1/events', { headers: { authorization: `Bearer ${issued.json().token}` } });
    assert.equal(events.status, 200, events.body);
    server.child.kill('SIGTERM');
    assert.equal((await server.exited).code, 0);
    return JSON.parse(readFileSync(packagesFile, 'utf8')) as string[];
  } finally {
    await server.dispose();
  }
}

const neverLoaded = (loaded: readonly string[], names: readonly string[]) => names.filter((name) => loaded.includes(name));

describeEachDatabase('a deployment loads no driver it does not use (their code would sit in its memory)', (kind: DatabaseKind) => {
  let dir: string;
  let databaseUrl: string;
  let dropDatabase: () => Promise<void>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wrs-unused-drivers-'));
    const database = await createTestDatabase(kind);
    databaseUrl = database.url;
    dropDatabase = () => database.drop();
  });
  after(async () => {
    await dropDatabase();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`on ${kind}: ${kind === 'sqlite' ? 'neither the PostgreSQL nor the Redis client' : 'the PostgreSQL client, and not the Redis one'}`, async () => {
    const loaded = await packagesLoadedServing({ WRS_DATABASE_URL: databaseUrl }, join(dir, 'plain.json'));
    if (kind === 'sqlite') assert.deepEqual(neverLoaded(loaded, POSTGRES_PACKAGES), []);
    else assert.ok(loaded.includes('pg'), `pg is loaded on PostgreSQL; got ${loaded.join(', ')}`);
    assert.deepEqual(neverLoaded(loaded, OPTIONAL_PACKAGES), []);
  });

  it(`on ${kind} with WRS_REDIS_URL: the Redis client as well`, async () => {
    await requireRedis();
    const loaded = await packagesLoadedServing({ WRS_DATABASE_URL: databaseUrl, WRS_REDIS_URL: REDIS_URL }, join(dir, 'redis.json'));
    assert.ok(loaded.includes('ioredis'), `ioredis is loaded; got ${loaded.join(', ')}`);
  });
});
