import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildManagementApp } from '../../src/http/management-app.js';
import { holdConnection } from './hold-connection.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app.js';

const METRICS_TOKEN = 'test-metrics-token-0123456789';
const API_CONNECTIONS = 2;
const PROMPTLY_MS = 5_000;

/** What a new API connection gets: its answer to GET /healthz, or '' when it is closed unanswered. */
async function apiAnswer(port: number): Promise<string> {
  const socket = await holdConnection(port);
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the API connection neither answered nor closed within ${PROMPTLY_MS} ms`));
    }, PROMPTLY_MS);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
  });
}

describeEachDatabase('the management listener (WRS_MANAGEMENT_PORT) while the API is full', (kind) => {
  let t: TestApp;
  let management: FastifyInstance;
  let apiPort: number;
  let managementUrl: string;
  const held: Socket[] = [];
  const get = (path: string, authorization?: string): Promise<Response> =>
    fetch(`${managementUrl}${path}`, { headers: authorization === undefined ? {} : { authorization } });

  before(async () => {
    t = await createTestApp(kind, {
      env: {
        WRS_MAX_CONNECTIONS: String(API_CONNECTIONS),
        WRS_MAX_CONNECTIONS_PER_ADDRESS: '0',
        WRS_CONNECTION_TIMEOUT_MS: '0',
        WRS_METRICS_TOKEN: METRICS_TOKEN,
        WRS_MANAGEMENT_PORT: '0',
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    apiPort = (t.app.server.address() as { port: number }).port;
    management = await buildManagementApp(t.ctx, t.app.rotation, { logger: false });
    managementUrl = await management.listen({ port: t.ctx.config.management!.port, host: t.ctx.config.management!.host });
    for (let i = 0; i < API_CONNECTIONS; i++) held.push(await holdConnection(apiPort));
  });
  after(async () => {
    for (const socket of held) socket.destroy();
    await management.close();
    await t.close();
  });

  it('the API takes no more connections, and /healthz, /readyz and /metrics answer on the management port', async () => {
    assert.equal(await apiAnswer(apiPort), '', 'a connection over WRS_MAX_CONNECTIONS is closed unanswered');

    const health = await get('/healthz');
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: 'ok' });
    assert.ok(health.headers.get('x-request-id'));
    assert.equal(health.headers.get('x-content-type-options'), 'nosniff');
    const ready = await get('/readyz');
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), { status: 'ready' });
    for (const token of [METRICS_TOKEN, TEST_ADMIN_TOKEN]) {
      const metrics = await get('/metrics', `Bearer ${token}`);
      assert.equal(metrics.status, 200);
      assert.match(await metrics.text(), /^# HELP /m);
    }
  });

  it("keeps the API listener's rules for /metrics, and serves nothing of the API", async () => {
    const anonymous = await get('/metrics');
    assert.equal(anonymous.status, 401);
    assert.equal(((await anonymous.json()) as { code: string }).code, 'unauthorized');
    assert.equal((await get('/metrics', 'Bearer not-the-metrics-token')).status, 401);
    assert.equal((await get('/metrics', `Bearer ${await t.userToken('acme')}`)).status, 401);
    const api = await get('/v1/events', `Bearer ${await t.userToken('acme')}`);
    assert.equal(api.status, 404);
    assert.equal(((await api.json()) as { code: string }).code, 'not_found');
    assert.equal((await get('/v1/openapi.json')).status, 404);
  });

  it("follows the API's rotation: /readyz answers 503 on both once the process leaves it", async () => {
    t.app.rotation.leave();
    const ready = await get('/readyz');
    assert.equal(ready.status, 503);
    assert.equal(ready.headers.get('retry-after'), '1');
    assert.equal((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 503);
    assert.equal((await get('/healthz')).status, 200);
  });
});
