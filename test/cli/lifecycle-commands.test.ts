import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { cliEnv, runCli, type CliRun } from '../helpers/cli-process.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { expectStatus } from '../records/fixtures.js';
import { crashingContext, ingestUserEvents, lapseLeases } from '../lifecycle/lifecycle-fixtures.js';
import { createRecord, defineRecordType, INVOICE_TYPE } from '../pdf/fixtures/records.js';

/**
 * `wrs erase`, `wrs offboard` and `wrs delete-record` against the database the app serves: each
 * command's first run is the real CLI in a process of its own, the others run in this process.
 */
describeEachDatabase('wrs erase and wrs offboard', (kind) => {
  let t: TestApp;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    t = await createTestApp(kind);
    env = cliEnv('unused.db', { WRS_DATABASE_URL: t.database.url, WRS_LIFECYCLE_BATCH_ROWS: '4' });
  });
  after(() => t.close());

  const expectExit = async (status: number, args: string[], options: { process?: true } = {}): Promise<CliRun> => {
    const run = await (options.process ? runCli(args, env) : runCliInProcess(args, env));
    assert.equal(run.status, status, `wrs ${args.join(' ')}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
    return run;
  };

  it('erases a person and prints the counts; the audit entry says the CLI asked', async () => {
    await ingestUserEvents(t, 'cli-erase', 'u-1', 9, 'cli-u1');
    await ingestUserEvents(t, 'cli-erase', 'u-2', 2, 'cli-u2');
    const run = await expectExit(0, ['erase', '--company', 'cli-erase', '--user-id', 'u-1'], { process: true });
    assert.match(run.stdout, /^erasure \S+ of company "cli-erase" done: removed 9 events and 0 record tokens in 3 batches/);
    const [entry] = expectStatus(await t.admin({ method: 'GET', url: '/admin/v1/companies/cli-erase/erasures' }), 200).results;
    assert.equal(entry.requested_by, 'cli');
    assert.deepEqual(entry.removed, { events: 9, record_tokens: 0 });
    assert.equal((await t.as('cli-erase', { method: 'GET', url: '/v1/events' })).json().count, 2);

    const json = await expectExit(0, ['erase', '--company', 'cli-erase', '--user-key', 'u-1', '--json']);
    const again = JSON.parse(json.stdout);
    assert.deepEqual([again.state, again.removed, again.subject_hash], ['done', { events: 0, record_tokens: 0 }, entry.subject_hash]);
  });

  it('refuses neither or both of --user-id and --user-key, and a bad company', async () => {
    const neither = await expectExit(1, ['erase', '--company', 'cli-erase']);
    assert.match(neither.stderr, /give the person's 'user_id'/);
    const both = await expectExit(1, ['erase', '--company', 'cli-erase', '--user-id', 'a', '--user-key', 'a']);
    assert.match(both.stderr, /not both/);
    await expectExit(2, ['erase', '--user-id', 'a']);
    await expectExit(2, ['erase', '--company', ' bad', '--user-id', 'a']);
  });

  it('a re-run continues the erasure a crashed run left half done', async () => {
    await ingestUserEvents(t, 'cli-crash', 'u-1', 10, 'cli-crash-u1');
    const crashing = await crashingContext(t, 1);
    let id: string;
    try {
      ({
        erasure: { id },
      } = await crashing.erasures.request('cli-crash', { user_id: 'u-1' }, 'cli'));
      await assert.rejects(crashing.erasures.run('cli-crash', id), /simulated crash/);
    } finally {
      await crashing.close();
    }
    await lapseLeases(t.ctx);
    const run = await expectExit(0, ['erase', '--company', 'cli-crash', '--user-id', 'u-1', '--json']);
    const finished = JSON.parse(run.stdout);
    assert.equal(finished.id, id);
    assert.deepEqual(finished.removed, { events: 10, record_tokens: 0 });
  });

  it('offboards a company and prints the rows per table', async () => {
    await ingestUserEvents(t, 'cli-leaving', 'u-1', 6, 'cli-leaving-u1');
    await ingestUserEvents(t, 'cli-staying', 'u-1', 2, 'cli-staying-u1');
    const run = await expectExit(0, ['offboard', '--company', 'cli-leaving'], { process: true });
    assert.match(run.stdout, /^company "cli-leaving" offboarded: \d+ rows removed in \d+ batches\n/);
    assert.match(run.stdout, /\n {2}events\t6\n/);
    const report = expectStatus(await t.admin({ method: 'GET', url: '/admin/v1/companies/cli-leaving/offboarding' }), 200);
    assert.equal(report.requested_by, 'cli');
    assert.equal(report.removed.events, 6);
    assert.equal((await t.as('cli-leaving', { method: 'GET', url: '/v1/events' })).json().count, 0);
    assert.equal((await t.as('cli-staying', { method: 'GET', url: '/v1/events' })).json().count, 2);
    const json = JSON.parse((await expectExit(0, ['offboard', '--company', 'cli-leaving', '--json'])).stdout);
    assert.equal(json.removed.events, 0);
  });

  it('deletes a record with wrs delete-record; a second time it is not found', async () => {
    await defineRecordType(t, 'cli-delete', 'invoice', INVOICE_TYPE);
    const record = await createRecord(t, 'cli-delete', 'invoice', { f_customer: 'Ada' });
    const run = await expectExit(0, ['delete-record', '--company', 'cli-delete', '--id', record.id], { process: true });
    assert.match(run.stdout, new RegExp(`^record "${record.id}" of company "cli-delete" deleted at \\d{4}-`));
    expectStatus(await t.as('cli-delete', { method: 'GET', url: `/v1/records/${record.id}` }), 404);
    const again = await expectExit(1, ['delete-record', '--company', 'cli-delete', '--id', record.id, '--json']);
    assert.match(again.stderr, /not found/);
    await expectExit(2, ['delete-record', '--company', 'cli-delete']);
  });
});
