import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TEST_ADMIN_TOKEN, TEST_JWT_SECRET } from '../helpers/test-app.js';
import { parseStartScreen, ROOT, runCli, startServe, type CliRun } from '../helpers/cli-process.js';

const SECRETS = { WRS_JWT_SECRET: TEST_JWT_SECRET, WRS_ADMIN_TOKEN: TEST_ADMIN_TOKEN, WRS_ENCRYPTION_KEY: '00'.repeat(32) };

/** A development environment with no secrets and no database set: everything comes from the data folder. */
const development = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  NODE_ENV: 'development',
  WRS_LOG_LEVEL: 'warn',
  WRS_PDF_WORKERS: '1',
  ...extra,
});

/** A configuration refusal: exit 78, a message, no stack trace. */
function assertRefused(run: CliRun, ...expected: RegExp[]): void {
  assert.equal(run.status, 78, `stdout: ${run.stdout}\nstderr: ${run.stderr}`);
  for (const pattern of expected) assert.match(run.stderr, pattern);
  assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
}

const literally = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

describe('the data folder of the wrs command', () => {
  let scratch: string;
  /** A folder that is not the project: the CLI is run from here. */
  let elsewhere: string;
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'wrs-data-'));
    elsewhere = join(scratch, 'elsewhere');
    mkdirSync(elsewhere);
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('a token minted from another folder is accepted by the server started on the same data', async () => {
    const data = join(scratch, 'shared');
    const server = startServe(development({ WRS_DATA_DIR: data, PORT: '0' }));
    try {
      const screen = await server.waitFor(parseStartScreen);
      assert.match(screen.base, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.notEqual(screen.base, 'http://127.0.0.1:0', 'the port listened on, not PORT=0');
      assert.match(server.output(), literally(`data: ${join(data, 'wrs.db')}   secrets: ${join(data, 'dev-secrets.json')}`));
      assert.ok(existsSync(join(data, 'dev-secrets.json')));

      const minted = await runCli(['token', '--company', 'demo-company'], development({ WRS_DATA_DIR: data }), '', elsewhere);
      assert.equal(minted.status, 0, minted.stderr);
      // The same data folder named relative to another cwd.
      const relative = await runCli(['token', '--company', 'demo-company'], development({ WRS_DATA_DIR: basename(data) }), '', dirname(data));
      assert.equal(relative.status, 0, relative.stderr);
      for (const token of [minted.stdout.trim(), relative.stdout.trim(), screen.token]) {
        const answer = await fetch(`${screen.base}/v1/events?limit=1`, { headers: { authorization: `Bearer ${token}` } });
        assert.equal(answer.status, 200);
      }
      const operator = await fetch(`${screen.base}/admin/v1/tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${screen.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ company_id: 'demo-company' }),
      });
      assert.equal(operator.status, 201, 'the printed ADMIN_TOKEN is the one in force');
      assert.equal(existsSync(join(elsewhere, 'data')), false, 'nothing is made in the cwd');
    } finally {
      await server.stop();
    }
  });

  it("defaults to the installation's own data folder, not the cwd", async () => {
    const run = await runCli(['token', '--company', 'demo-company'], development(SECRETS), '', elsewhere);
    assert.equal(existsSync(join(elsewhere, 'data')), false);
    // The project's data folder may or may not hold a database on this machine: either the token
    // is signed, or the refusal names the database where the installation keeps it.
    if (run.status !== 0) assertRefused(run, literally(join(ROOT, 'data', 'wrs.db')));
  });

  it('refuses to make new secrets beside an existing database, naming both files and the ways out', async () => {
    const data = join(scratch, 'secrets-elsewhere');
    const migrated = await runCli(['migrate'], development({ ...SECRETS, WRS_DATA_DIR: data }));
    assert.equal(migrated.status, 0, migrated.stderr);
    assert.ok(existsSync(join(data, 'wrs.db')));
    assert.equal(existsSync(join(data, 'dev-secrets.json')), false, 'secrets given in the environment are not written down');

    for (const args of [['token', '--company', 'demo-company'], ['serve'], ['migrate']]) {
      const run = await runCli(args, development({ WRS_DATA_DIR: data }), '', elsewhere);
      assertRefused(
        run,
        literally(join(data, 'wrs.db')),
        literally(join(data, 'dev-secrets.json')),
        /WRS_JWT_SECRET, WRS_ADMIN_TOKEN, WRS_ENCRYPTION_KEY/,
        /WRS_DATA_DIR/,
      );
      assert.equal(existsSync(join(data, 'dev-secrets.json')), false, `wrs ${args[0]} made no secrets`);
    }

    writeFileSync(join(data, 'dev-secrets.json'), '{"WRS_JWT_SECRET": ');
    const unreadable = await runCli(['token', '--company', 'demo-company'], development({ WRS_DATA_DIR: data }), '', elsewhere);
    assertRefused(unreadable, literally(`the development secrets file ${join(data, 'dev-secrets.json')} cannot be read`));
  });

  it('refuses to run a command on data that does not exist, and creates nothing', async () => {
    const data = join(scratch, 'never-made');
    const events = join(scratch, 'events.ndjson');
    writeFileSync(events, '{"type":"x"}\n');
    for (const args of [
      ['token', '--company', 'demo-company'],
      ['import', 'events', events, '--company', 'acme'],
      ['record-type', 'list', '--company', 'acme'],
    ]) {
      const run = await runCli(args, development({ WRS_DATA_DIR: data }), '', elsewhere);
      assertRefused(run, literally(`no database at ${join(data, 'wrs.db')}`), /WRS_DATA_DIR/, /WRS_DATABASE_URL/);
    }
    const explicit = await runCli(['token', '--company', 'acme'], development({ WRS_DATABASE_URL: 'sqlite:./nothing/here.db' }), '', elsewhere);
    assertRefused(explicit, literally(join(elsewhere, 'nothing', 'here.db')));
    assert.equal(existsSync(data), false);
    assert.equal(existsSync(join(elsewhere, 'nothing')), false);

    const migrated = await runCli(['migrate'], development({ WRS_DATA_DIR: data }), '', elsewhere);
    assert.equal(migrated.status, 0, migrated.stderr);
    assert.ok(existsSync(join(data, 'wrs.db')), 'wrs migrate may create the database');
    assert.ok(existsSync(join(data, 'dev-secrets.json')), 'and its secrets, beside it');
    const listed = await runCli(['record-type', 'list', '--company', 'acme'], development({ WRS_DATA_DIR: data }), '', elsewhere);
    assert.equal(listed.status, 0, listed.stderr);
  });

  it('wrs token needs no database when the secrets are in the environment, and writes nothing', async () => {
    const data = join(scratch, 'token-only');
    const run = await runCli(['token', '--company', 'acme'], development({ ...SECRETS, WRS_DATA_DIR: data }), '', elsewhere);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout.trim(), /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.equal(existsSync(data), false);
  });

  it('never writes a secrets file in production', async () => {
    const data = join(scratch, 'production');
    const production = (extra: NodeJS.ProcessEnv = {}) =>
      development({ NODE_ENV: 'production', WRS_DATA_DIR: data, WRS_PUBLIC_URL: 'https://api.example.com', ...extra });

    assertRefused(await runCli(['migrate'], production()), /WRS_JWT_SECRET: required when NODE_ENV=production/);
    assert.equal((await runCli(['migrate'], production(SECRETS))).status, 0);
    const token = await runCli(['token', '--company', 'acme'], production(SECRETS), '', elsewhere);
    assert.equal(token.status, 0, token.stderr);
    const server = startServe(production({ ...SECRETS, PORT: '0', WRS_LOG_LEVEL: 'info' }));
    try {
      await server.waitFor((output) => (/Server listening at/.test(output) ? true : undefined));
      assert.equal(parseStartScreen(server.output()), undefined, 'no start screen in production');
    } finally {
      await server.stop();
    }
    assert.ok(existsSync(join(data, 'wrs.db')));
    assert.equal(existsSync(join(data, 'dev-secrets.json')), false);
  });
});
