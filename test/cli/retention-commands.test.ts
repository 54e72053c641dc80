import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ingestOk, listIds } from '../events/event-fixtures.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { cliEnv, runCli, type CliRun } from '../helpers/cli-process.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { daily } from '../retention/retention-fixtures.js';

/**
 * `wrs retention ...` against the SQLite file the app here serves: the first run is the real CLI
 * in a process of its own, the others run in this process.
 */
describe('wrs retention commands', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let t: TestApp;

  const expectExit = async (status: number, args: string[], options: { process?: true } = {}): Promise<CliRun> => {
    const run = await (options.process ? runCli(args, env) : runCliInProcess(args, env));
    assert.equal(run.status, status, `wrs ${args.join(' ')}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
    return run;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wrs-cli-retention-'));
    env = cliEnv(join(dir, 'wrs.db'));
    t = await createTestApp('sqlite', { env: { WRS_DATABASE_URL: env.WRS_DATABASE_URL! } });
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sets, shows and clears a period as the operator API does, and sweeps', async () => {
    const shown = await expectExit(0, ['retention', 'show', '--company', 'cli-ret'], { process: true });
    assert.match(shown.stdout, /company "cli-ret" keeps its events forever \(no setting of its own, and WRS_EVENT_RETENTION_DAYS is not set\)/);

    const set = await expectExit(0, ['retention', 'set', '--company', 'cli-ret', '--days', '30', '--json']);
    assert.deepEqual(JSON.parse(set.stdout), { company_id: 'cli-ret', retention_days: 30, source: 'company', deployment_default_days: null });
    assert.deepEqual((await t.admin({ url: '/admin/v1/companies/cli-ret/retention' })).json(), JSON.parse(set.stdout));

    await ingestOk(t, 'cli-ret', daily('old', 3, '2020-01-03T00:00:00.000Z'));
    await ingestOk(t, 'cli-ret', daily('new', 1, new Date().toISOString()));
    const swept = await expectExit(0, ['retention', 'sweep']);
    assert.match(swept.stdout, /removed 3 events older than their company's retention period/);
    assert.deepEqual(await listIds(t, 'cli-ret', 'limit=10'), ['new-1']);

    const forever = await expectExit(0, ['retention', 'set', '--company', 'cli-ret', '--days', 'forever']);
    assert.match(forever.stdout, /keeps its events forever \(its own setting\)/);
    const cleared = await expectExit(0, ['retention', 'clear', '--company', 'cli-ret', '--json']);
    assert.equal(JSON.parse(cleared.stdout).source, 'none');
  });

  it('refuses a bad --days or a missing --company with a usage error, changing nothing', async () => {
    for (const days of ['0', '-3', '1.5', 'soon', '36501']) {
      const run = await expectExit(2, ['retention', 'set', '--company', 'cli-bad', `--days=${days}`]);
      assert.match(run.stderr, /--days must be a whole number of days from 1 to 36500, or forever/);
    }
    await expectExit(2, ['retention', 'set', '--company', 'cli-bad']);
    await expectExit(2, ['retention', 'show']);
    assert.equal((await t.admin({ url: '/admin/v1/companies/cli-bad/retention' })).json().source, 'none');
  });
});
