import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { cliEnv, runCli, type CliRun } from '../helpers/cli-process.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** `wrs profile ...` against the SQLite file the app here serves, checked through the operator API. */
describe('wrs profile commands', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let t: TestApp;

  const expectExit = async (status: number, args: string[], options: { process?: true } = {}): Promise<CliRun> => {
    const run = await (options.process ? runCli(args, env) : runCliInProcess(args, env));
    assert.equal(run.status, status, `wrs ${args.join(' ')}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
    return run;
  };
  const viaApi = async (company: string) => (await t.admin({ url: `/admin/v1/companies/${company}/profile` })).json();

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wrs-cli-profile-'));
    env = cliEnv(join(dir, 'wrs.db'));
    t = await createTestApp('sqlite', { env: { WRS_DATABASE_URL: env.WRS_DATABASE_URL! } });
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sets, shows and clears the profile as the operator API does', async () => {
    const set = await expectExit(
      0,
      ['profile', 'set', '--company', 'cli-prof', '--display-name', 'Acme Equipment Finance', '--support-email', 'loans@acme.example'],
      {
        process: true,
      },
    );
    assert.match(set.stdout, /company "cli-prof"\n {2}display name: {2}Acme Equipment Finance\n {2}support email: loans@acme.example/);
    assert.deepEqual(await viaApi('cli-prof'), { company_id: 'cli-prof', display_name: 'Acme Equipment Finance', support_email: 'loans@acme.example' });

    const cleared = await expectExit(0, ['profile', 'set', '--company', 'cli-prof', '--support-email', '', '--json']);
    assert.deepEqual(JSON.parse(cleared.stdout), { company_id: 'cli-prof', display_name: 'Acme Equipment Finance', support_email: null });
    const shown = await expectExit(0, ['profile', 'show', '--company', 'cli-prof']);
    assert.match(shown.stdout, /support email: \(not set\)/);
  });

  it('refuses a bad value (exit 1, naming it) and a set without values (exit 2), changing nothing', async () => {
    await expectExit(0, ['profile', 'set', '--company', 'cli-prof-bad', '--display-name', 'Kept']);
    const bad = await expectExit(1, ['profile', 'set', '--company', 'cli-prof-bad', '--support-email', 'nobody']);
    assert.match(bad.stderr, /company "cli-prof-bad": invalid body: 'support_email' must be an email address such as help@example.com \(got "nobody"\)/);
    const none = await expectExit(2, ['profile', 'set', '--company', 'cli-prof-bad']);
    assert.match(none.stderr, /give --display-name, --support-email or both/);
    await expectExit(2, ['profile', 'show']);
    assert.deepEqual(await viaApi('cli-prof-bad'), { company_id: 'cli-prof-bad', display_name: 'Kept', support_email: null });
  });
});
