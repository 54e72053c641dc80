import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cliEnv, runCli } from '../helpers/cli-process.js';
import { freePort } from '../helpers/free-port.js';

const dir = mkdtempSync(join(tmpdir(), 'wrs-start-errors-'));
const PG_URL = process.env.WRS_TEST_PG_URL;

/** A production start on `databaseUrl` that must fail as a configuration error: exit 78, no stack; its stderr. */
async function refusedStart(command: 'serve' | 'migrate', databaseUrl: string): Promise<string> {
  const env = cliEnv(join(dir, 'unused.db'), { NODE_ENV: 'production', WRS_PUBLIC_URL: 'http://127.0.0.1', PORT: '0', WRS_DATABASE_URL: databaseUrl });
  const run = await runCli([command], env);
  assert.equal(run.status, 78, run.stderr);
  assert.doesNotMatch(run.stderr, /\n\s+at |Error:/, 'no stack trace');
  return run.stderr.trim();
}

/** refusedStart, printing exactly one line. */
async function start(command: 'serve' | 'migrate', databaseUrl: string): Promise<string> {
  const stderr = await refusedStart(command, databaseUrl);
  assert.equal(stderr.split('\n').length, 1, `one line: ${stderr}`);
  return stderr;
}

/** The URL of the test PostgreSQL with another role, database or password. */
function pgUrlWith(change: (url: URL) => void): string {
  const url = new URL(PG_URL!);
  change(url);
  return url.toString();
}

describe('a database that cannot be opened at start: one line naming the cause and WRS_DATABASE_URL, exit 78', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const command of ['serve', 'migrate'] as const) {
    it(`wrs ${command}: PostgreSQL refusing connections, the password masked`, async () => {
      const port = await freePort();
      const line = await start(command, `postgres://wrs:s3cret-pw@127.0.0.1:${port}/wrs`);
      assert.match(line, new RegExp(`WRS_DATABASE_URL=postgres://wrs:\\*\\*\\*@127\\.0\\.0\\.1:${port}/wrs`));
      assert.match(line, /refuses connections/);
      assert.doesNotMatch(line, /s3cret-pw/);
    });

    it(`wrs ${command}: a database that does not exist`, { skip: PG_URL === undefined && 'WRS_TEST_PG_URL is not set' }, async () => {
      const line = await start(
        command,
        pgUrlWith((url) => {
          url.pathname = '/wrs_no_such_database';
          url.password = 'pw';
        }),
      );
      assert.match(line, /database "wrs_no_such_database" does not exist/);
      assert.match(line, /WRS_DATABASE_URL=postgres:\/\/[^:]+:\*\*\*@/);
    });

    it(`wrs ${command}: a role that does not exist`, { skip: PG_URL === undefined && 'WRS_TEST_PG_URL is not set' }, async () => {
      const line = await start(
        command,
        pgUrlWith((url) => {
          url.username = 'wrs_no_such_role';
        }),
      );
      assert.match(line, /role "wrs_no_such_role" does not exist/);
      assert.match(line, /WRS_DATABASE_URL=postgres:\/\/wrs_no_such_role/);
    });
  }

  it('refuses a sqlite: path in a folder that does not exist in production, and creates nothing', async () => {
    const missing = join(dir, 'no-such-folder');
    const line = await refusedStart('serve', `sqlite:${join(missing, 'wrs.db')}`);
    assert.match(line, /WRS_DATABASE_URL: the folder .*no-such-folder does not exist/);
    assert.equal(existsSync(missing), false);
  });
});
