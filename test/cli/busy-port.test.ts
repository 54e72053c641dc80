import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLI_NODE_ARGS } from '../helpers/cli-process.js';
import { TEST_ADMIN_TOKEN, TEST_JWT_SECRET } from '../helpers/test-app.js';

/** `wrs serve` on the given port, to its exit: status and stderr. */
function serve(port: number, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'wrs-busy-'));
  const child = spawn(process.execPath, [...CLI_NODE_ARGS, 'serve'], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      WRS_PUBLIC_URL: 'http://127.0.0.1',
      WRS_DATABASE_URL: `sqlite:${join(dir, 'wrs.db')}`,
      WRS_JWT_SECRET: TEST_JWT_SECRET,
      WRS_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      WRS_ENCRYPTION_KEY: '00'.repeat(32),
      WRS_LOG_LEVEL: 'warn',
      WRS_PDF_WORKERS: '1',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(killer);
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, stderr });
    }),
  );
}

describe('wrs serve on a port another program holds', () => {
  let holder: Server;
  let port: number;
  before(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    port = (holder.address() as { port: number }).port;
  });
  after(() => new Promise<void>((resolve) => holder.close(() => resolve())));

  for (const workers of ['1', '2']) {
    it(`names the address and how to choose another, without a stack trace, exit 78 (WRS_WORKERS=${workers})`, async () => {
      const { code, stderr } = await serve(port, { WRS_WORKERS: workers });
      assert.equal(code, 78, stderr);
      assert.match(stderr, new RegExp(`127\\.0\\.0\\.1:${port} is already in use`));
      assert.match(stderr, /PORT/);
      assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
    });
  }

  it('names WRS_MANAGEMENT_PORT when the management listener is the one that cannot listen, exit 78', async () => {
    const apiPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const { code, stderr } = await serve(apiPort, { WRS_MANAGEMENT_PORT: String(port) });
    assert.equal(code, 78, stderr);
    assert.match(stderr, new RegExp(`127\\.0\\.0\\.1:${port} is already in use`));
    assert.match(stderr, /WRS_MANAGEMENT_PORT/);
    assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
  });
});
