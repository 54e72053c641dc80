import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import type { StandbyChange } from '../../src/storage/read-routing.js';
import { anEvent, ingestOk, listIds } from '../events/event-fixtures.js';
import { PG_URL } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const CONNECT_TIMEOUT_MS = 300;

describe('read replicas: a standby that never answers', { skip: !PG_URL && 'PostgreSQL tests run with WRS_TEST_PG_URL set' }, () => {
  /** Accepts connections and says nothing, as a black-holed standby does. */
  let silent: Server;
  const sockets = new Set<Socket>();
  let accepted = 0;
  let t: TestApp;
  const changes: StandbyChange[] = [];

  before(async () => {
    silent = createServer((socket) => {
      accepted += 1;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    t = await createTestApp('postgres', {
      env: {
        WRS_DATABASE_READ_URL: `postgres://wrs@127.0.0.1:${port}/wrs`,
        WRS_DB_READ_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
        WRS_DB_READ_RETRY_MS: '60000',
        WRS_PAGE_CACHE_BYTES: '0',
      },
    });
    t.ctx.readRouting.onStandbyChange((change) => changes.push(change));
  });

  after(async () => {
    await t?.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent?.close(resolve));
  });

  it('pays the connect timeout once, then reads from the primary without trying the standby', async () => {
    let reading = 0;
    for (let i = 0; i < 10; i++) {
      const id = `silent-${i}`;
      await ingestOk(t, 'acme', [anEvent({ id })]);
      const started = performance.now();
      assert.ok((await listIds(t, 'acme')).includes(id));
      reading += performance.now() - started;
    }
    assert.equal(accepted, 1, 'only the first read tried the standby');
    // Trying the standby on every read would take at least 10 connect timeouts.
    assert.ok(reading < 10 * CONNECT_TIMEOUT_MS, `10 reads took ${Math.round(reading)} ms`);
    assert.deepEqual(t.ctx.readRouting.counts(), { standby: 0, primary: 10 });
    assert.deepEqual(
      changes.map((change) => change.state),
      ['down'],
    );
  });
});
