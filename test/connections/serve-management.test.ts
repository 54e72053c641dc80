import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { afterEach, describe, it } from 'node:test';
import { holdConnection } from './hold-connection.js';
import { httpRequest } from '../hardening/helpers/http.js';
import { freePort, startServer, type LogLine, type ServerProcess } from '../hardening/helpers/server-process.js';

const METRICS_TOKEN = 'test-metrics-token-0123456789';
const listeningOn = (port: number) => (line: LogLine) => String(line.msg).startsWith('Server listening') && String(line.msg).endsWith(`:${port}`);

describe('wrs serve with WRS_MANAGEMENT_PORT (real process)', () => {
  let server: ServerProcess | undefined;
  const held: Socket[] = [];
  afterEach(async () => {
    for (const socket of held.splice(0)) socket.destroy();
    await server?.dispose();
    server = undefined;
  });

  for (const workers of ['1', '2']) {
    it(`serves the probes and metrics on the management port while the API is full, and drains them with it (WRS_WORKERS=${workers})`, {
      timeout: 120_000,
    }, async () => {
      const managementPort = await freePort();
      server = await startServer({
        WRS_WORKERS: workers,
        WRS_MANAGEMENT_PORT: String(managementPort),
        WRS_MAX_CONNECTIONS: '2',
        WRS_MAX_CONNECTIONS_PER_ADDRESS: '0',
        WRS_CONNECTION_TIMEOUT_MS: '0',
        WRS_METRICS_TOKEN: METRICS_TOKEN,
        WRS_SHUTDOWN_DRAIN_MS: '2000',
        WRS_SHUTDOWN_TIMEOUT_MS: '5000',
      });
      await server.waitForLogs(listeningOn(server.port), Number(workers), 'the API to listen');
      await server.waitForLogs(listeningOn(managementPort), Number(workers), 'the management listener to listen');

      // Every worker's API takes two connections that send nothing.
      for (let i = 0; i < 2 * Number(workers); i++) held.push(await holdConnection(server.port));
      for (let i = 0; i < 3; i++) {
        assert.equal((await httpRequest(managementPort, 'GET', '/healthz')).status, 200);
        assert.equal((await httpRequest(managementPort, 'GET', '/readyz')).status, 200);
        const metrics = await httpRequest(managementPort, 'GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
        assert.equal(metrics.status, 200);
        assert.match(metrics.body, /^# HELP /m);
        assert.equal((await httpRequest(managementPort, 'GET', '/metrics')).status, 401);
      }

      server.child.kill('SIGTERM');
      // Each worker leaves the rotation on its own; the probe below may reach either of them.
      await server.waitForLogs((line) => String(line.msg).startsWith('shutting down: out of rotation'), Number(workers), 'every worker to start draining');
      const readiness = await httpRequest(managementPort, 'GET', '/readyz');
      assert.equal(readiness.status, 503, '/readyz on the management port leaves the rotation with the API');
      assert.equal((await httpRequest(managementPort, 'GET', '/healthz')).status, 200);
      for (const socket of held.splice(0)) socket.destroy();
      const { code, signal } = await server.exited;
      assert.deepEqual({ code, signal }, { code: 0, signal: null });
    });
  }
});
