// WRS_WORKERS=2: the workers share one port, so a scrape reaches either; each answers the sum of
// both workers' metrics, gathered by the primary (real processes).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_ADMIN_TOKEN } from '../helpers/test-app.js';
import { httpRequest } from '../hardening/helpers/http.js';
import { startServer, type LogLine, type ServerProcess } from '../hardening/helpers/server-process.js';
import { parseExposition } from './exposition.js';

const workerListening = (line: LogLine) => String(line.msg).startsWith('Server listening');
const HEALTH_CHECKS = 12;

describe('GET /metrics with WRS_WORKERS=2 (real processes)', () => {
  let server: ServerProcess;
  before(async () => {
    server = await startServer({ WRS_WORKERS: '2', WRS_SHUTDOWN_TIMEOUT_MS: '5000' });
    await server.waitForLogs(workerListening, 2, 'two workers to listen');
  });
  after(() => server.dispose());

  const scrape = async () => {
    const response = await httpRequest(server.port, 'GET', '/metrics', { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    assert.equal(response.status, 200, response.body);
    return parseExposition(response.body);
  };

  it("answers every worker's requests together, whichever worker takes the scrape", async () => {
    // Each on its own connection: the primary hands connections to the workers in turn.
    for (let i = 0; i < HEALTH_CHECKS; i++) assert.equal((await httpRequest(server.port, 'GET', '/healthz')).status, 200);
    for (let i = 0; i < 4; i++) {
      const exposition = await scrape();
      assert.equal(exposition.value('wrs_http_request_duration_seconds_count', { method: 'GET', route: '/healthz', status_code: '200' }), HEALTH_CHECKS);
      assert.equal(exposition.value('wrs_db_pool_connections_idle'), 4, 'two workers, each with its SQLite writer and reader');
      assert.equal(exposition.find('nodejs_version_info').length, 1);
    }
  });

  it('the requests were served by both workers', async () => {
    const pids = new Set(server.logs.filter((line) => line.msg === 'request completed').map((line) => line.pid));
    assert.equal(pids.size, 2);
  });
});
