import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../helpers/databases.js';
import { signUserToken, TEST_ADMIN_TOKEN } from '../helpers/test-app.js';
import { httpRequest } from './helpers/http.js';
import { startServer, type LogLine, type ServerProcess } from './helpers/server-process.js';

const workerListening = (line: LogLine) => String(line.msg).startsWith('Server listening');
const completed = (line: LogLine) => line.msg === 'request completed';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describeEachDatabase('WRS_WORKERS=2: one port, several processes (real process)', (kind) => {
  let server: ServerProcess;
  let database: TestDatabase | undefined;
  let token: string;
  before(async () => {
    // On SQLite the server's own temporary file; on PostgreSQL a fresh database.
    database = kind === 'postgres' ? await createTestDatabase('postgres') : undefined;
    server = await startServer({
      WRS_WORKERS: '2',
      WRS_SHUTDOWN_TIMEOUT_MS: '10000',
      ...(database ? { WRS_DATABASE_URL: database.url } : {}),
    });
    token = await signUserToken({ company_id: 'acme', sub: 'u1' });
  });
  after(async () => {
    await server.dispose();
    await database?.drop();
  });

  const workerPids = (lines: LogLine[]) => new Set(lines.map((line) => line.pid));

  it('starts two workers, other processes than the primary, that share the port', async () => {
    const started = await server.waitForLogs(workerListening, 2, 'two workers to listen');
    const pids = workerPids(started);
    assert.equal(pids.size, 2);
    assert.ok(!pids.has(server.child.pid), 'the primary does not serve');
  });

  it('answers from both workers and writes concurrently without losing a record', async () => {
    const defined = await httpRequest(server.port, 'PUT', '/admin/v1/companies/acme/record-types/task', {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      body: { name: 'Task', statuses: ['open', 'done'] },
    });
    assert.ok(defined.status === 200 || defined.status === 201, defined.body);

    const created = await Promise.all(
      Array.from({ length: 40 }, () => httpRequest(server.port, 'POST', '/v1/records/task', { headers: { authorization: `Bearer ${token}` }, body: {} })),
    );
    assert.deepEqual(
      created.map((response) => response.status),
      created.map(() => 201),
      created.find((response) => response.status !== 201)?.body,
    );
    const ids = new Set(created.map((response) => response.json().id));
    assert.equal(ids.size, 40);

    const updated = await Promise.all(
      [...ids].map((id) => httpRequest(server.port, 'PATCH', `/v1/records/${id}`, { headers: { authorization: `Bearer ${token}` }, body: { status: 'done' } })),
    );
    assert.ok(
      updated.every((response) => response.status === 200),
      updated.find((response) => response.status !== 200)?.body,
    );

    const listed = await httpRequest(server.port, 'GET', '/v1/records?limit=100', { headers: { authorization: `Bearer ${token}` } });
    assert.equal(listed.status, 200);
    const results = listed.json().results as { id: string; status: string }[];
    assert.deepEqual(new Set(results.map((record) => record.id)), ids);
    assert.ok(results.every((record) => record.status === 'done'));

    const servedBy = workerPids(server.logs.filter(completed));
    assert.equal(servedBy.size, 2, 'connections were spread over both workers');
  });

  it('replaces a worker that dies, and keeps answering', async () => {
    const [victim] = [...workerPids(server.logs.filter(workerListening))] as number[];
    process.kill(victim!, 'SIGKILL');
    await server.waitForLog((line) => line.msg === 'worker died: starting a replacement' && line.worker_pid === victim, 'the primary to notice');
    const started = await server.waitForLogs(workerListening, 3, 'a replacement worker');
    assert.equal(workerPids(started).size, 3);
    for (let i = 0; i < 6; i++) {
      assert.equal((await httpRequest(server.port, 'GET', '/readyz')).status, 200);
    }
  });

  it('stops every worker gracefully on SIGTERM to the primary and exits 0', async () => {
    const live = [...workerPids(server.logs.filter(workerListening))].filter((pid) => isRunning(pid as number)) as number[];
    assert.equal(live.length, 2);
    server.child.kill('SIGTERM');
    const { code, signal } = await server.exited;
    assert.deepEqual({ code, signal }, { code: 0, signal: null });
    for (const pid of live) {
      assert.ok(
        server.logs.some((line) => line.pid === pid && line.msg === 'stopped' && line.clean === true),
        `worker ${pid} stopped cleanly`,
      );
      assert.equal(isRunning(pid), false);
    }
    assert.ok(server.logs.some((line) => line.msg === 'cluster stopped' && line.clean === true));
  });
});
