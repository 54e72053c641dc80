import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI_NODE_ARGS, startProcess, type RunningProcess } from '../helpers/cli-process.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../helpers/databases.js';
import { freePort } from '../hardening/helpers/server-process.js';
import { signUserToken, TEST_ADMIN_TOKEN, TEST_JWT_SECRET } from '../helpers/test-app.js';
import { LOAN_TYPE, VALID_LOAN } from '../records/fixtures.js';
import { eventually } from './receiver.js';

const RECORDS = 24;

/**
 * `wrs serve` as a real process, killed with SIGKILL while its deliveries hang in flight or wait
 * their turn: after a restart on the same database every delivery arrives (at least once).
 * Mostly waiting on processes and leases, and sharing nothing: both databases at once.
 */
describeEachDatabase(
  'webhooks: SIGKILL with deliveries pending and in flight',
  (kind) => {
    let database: TestDatabase;
    let serve: RunningProcess | undefined;
    let receiver: http.Server;
    let answering = false;
    const accepted = new Map<string, string>();
    let attemptsSeen = 0;

    const env = (port: number): NodeJS.ProcessEnv => ({
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      WRS_ALLOWED_HOSTS: `127.0.0.1:${port}`,
      WRS_DATABASE_URL: database.url,
      WRS_JWT_SECRET: TEST_JWT_SECRET,
      WRS_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      WRS_ENCRYPTION_KEY: '00'.repeat(32),
      WRS_LOG_LEVEL: 'warn',
      WRS_PDF_WORKERS: '1',
      WRS_WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WRS_WEBHOOK_TIMEOUT_MS: '1000',
      WRS_WEBHOOK_RETRY_BASE_MS: '100',
      WRS_WEBHOOK_POLL_MS: '100',
    });

    async function startServing(): Promise<string> {
      const port = await freePort();
      serve = startProcess(process.execPath, [...CLI_NODE_ARGS, 'serve'], { env: env(port) });
      const base = `http://127.0.0.1:${port}`;
      await eventually(
        () =>
          fetch(`${base}/readyz`).then(
            (response) => response.status,
            () => 0,
          ),
        (status) => status === 200,
        60_000,
      );
      return base;
    }

    before(async () => {
      database = await createTestDatabase(kind);
      receiver = http.createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          attemptsSeen++;
          if (!answering) return; // in flight until the attempt times out, or the process dies
          accepted.set(String(request.headers['webhook-id']), Buffer.concat(chunks).toString('utf8'));
          response.end('ok');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    });
    after(async () => {
      if (serve) serve.child.kill('SIGKILL');
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
      await database.drop();
    });

    it('delivers every change after a restart', async () => {
      let base = await startServing();
      const user = `Bearer ${await signUserToken({ company_id: 'acme', sub: 'user-1' })}`;
      const call = (method: string, path: string, body: unknown, authorization = user) =>
        fetch(`${base}${path}`, { method, headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      assert.equal((await call('PUT', '/admin/v1/companies/acme/record-types/loan', LOAN_TYPE, `Bearer ${TEST_ADMIN_TOKEN}`)).status, 201);
      const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      assert.equal((await call('POST', '/v1/webhooks', { url: receiverUrl, events: ['record.created'] })).status, 201);
      const recordIds: string[] = [];
      for (let i = 0; i < RECORDS; i++) {
        const response = await call('POST', '/v1/records/loan', VALID_LOAN);
        assert.equal(response.status, 201);
        recordIds.push(((await response.json()) as { id: string }).id);
      }
      // Some attempts hang in flight (a receiver gets at most 16 at once), the others are pending.
      await eventually(
        async () => attemptsSeen,
        (seen) => seen >= 16,
        20_000,
      );
      serve!.child.kill('SIGKILL');
      await new Promise((resolve) => serve!.child.once('exit', resolve));
      assert.equal(accepted.size, 0);

      answering = true;
      base = await startServing();
      await eventually(
        async () => accepted.size,
        (count) => count >= RECORDS,
        60_000,
      );
      const delivered = [...accepted.values()].map((body) => (JSON.parse(body) as { data: { id: string } }).data.id);
      assert.deepEqual(new Set(delivered), new Set(recordIds));
      await sleep(50);
      await serve!.stop();
      serve = undefined;
    });
  },
  { concurrently: true },
);
