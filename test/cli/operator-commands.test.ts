import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { lobCheck } from '../checks/check-factory.js';
import { minimalTemplate } from '../pdf/fixtures/templates.js';
import { LOAN_TYPE } from '../records/fixtures.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { cliEnv, runCli, type CliRun } from '../helpers/cli-process.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The operator commands against one SQLite file that the app built here (the HTTP API) reads and
 * writes too. Each test uses its own company, so the tests run side by side. The commands run in
 * this process, except the runs marked `process: true` (one or more of each command family) and
 * those reading stdin, which start the real CLI in a child process.
 */
describe('wrs operator commands', { concurrency: 3 }, () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let t: TestApp;

  const wrs = (args: string[], options: { stdin?: string; env?: Record<string, string>; process?: true } = {}): Promise<CliRun> =>
    options.process || options.stdin !== undefined
      ? runCli(args, { ...env, ...options.env }, options.stdin)
      : runCliInProcess(args, { ...env, ...options.env });

  /** Runs the CLI and expects exit status `status`; answers the run. */
  const expectExit = async (status: number, args: string[], options?: Parameters<typeof wrs>[1]): Promise<CliRun> => {
    const run = await wrs(args, options);
    assert.equal(run.status, status, `wrs ${args.join(' ')}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
    return run;
  };

  const file = (name: string, content: unknown): string => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wrs-cli-ops-'));
    // A template put renders once to check it. These runs share a busy CI machine with other
    // suites (once, before the plugin load left the render's clock, a trial render passed the
    // default 15 s there), and the messages tested here are not a test of render time.
    env = cliEnv(join(dir, 'wrs.db'), { WRS_PDF_TIMEOUT_MS: '120000' });
    // Migrates the file before the CLI processes start, side by side, on it.
    t = await createTestApp('sqlite', { env: { WRS_DATABASE_URL: env.WRS_DATABASE_URL! } });
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('record-type put / get / list / delete', async () => {
    const co = 'cli-types';
    const definition = file('loan.json', LOAN_TYPE);

    const created = await expectExit(0, ['record-type', 'put', '--company', co, '--id', 'loan', definition]);
    assert.match(created.stdout, /record type "loan" created for company "cli-types" \(version 1\): 4 fields, 3 statuses, 3 views/);
    const stored = (await t.admin({ url: `/admin/v1/companies/${co}/record-types/loan` })).json();
    assert.deepEqual({ name: stored.name, fields: stored.fields, statuses: stored.statuses, views: stored.views }, LOAN_TYPE);

    // Written through HTTP, read through the CLI.
    await t.admin({ method: 'PUT', url: `/admin/v1/companies/${co}/record-types/lease`, payload: { name: 'Lease' } });
    const got = await expectExit(0, ['record-type', 'get', '--company', co, '--id', 'lease', '--json'], { process: true });
    assert.deepEqual(JSON.parse(got.stdout), (await t.admin({ url: `/admin/v1/companies/${co}/record-types/lease` })).json());
    const listed = await expectExit(0, ['record-type', 'list', '--company', co, '--json']);
    assert.deepEqual(JSON.parse(listed.stdout), (await t.admin({ url: `/admin/v1/companies/${co}/record-types` })).json());
    assert.equal(JSON.parse(listed.stdout).count, 2);

    // A definition with problems: the operator API's message and every problem, one a line.
    const bad = { name: '', fields: [{ uid: 'status', field_name: 'x', type: 'money' }], extra: 1 };
    const refused = await expectExit(1, ['record-type', 'put', '--company', co, '--id', 'bad', file('bad-type.json', bad)]);
    const viaHttp = (await t.admin({ method: 'PUT', url: `/admin/v1/companies/${co}/record-types/bad`, payload: bad })).json();
    assert.equal(refused.stderr.split('\n')[0], viaHttp.message);
    assert.ok(viaHttp.problems.length >= 3);
    for (const problem of viaHttp.problems as string[]) assert.ok(refused.stderr.includes(`\n  - ${problem}`), problem);
    assert.equal(refused.stdout, '');

    const malformed = await expectExit(1, ['record-type', 'put', '--company', co, '--id', 'bad', file('broken.json', '{"name":')]);
    assert.match(malformed.stderr, /broken\.json: malformed JSON/);
    assert.equal((await t.admin({ url: `/admin/v1/companies/${co}/record-types/bad` })).statusCode, 404);

    const deleted = await expectExit(0, ['record-type', 'delete', '--company', co, '--id', 'loan']);
    assert.match(deleted.stdout, /record type "loan" deleted/);
    assert.equal((await t.admin({ url: `/admin/v1/companies/${co}/record-types/loan` })).statusCode, 404);
    const gone = await expectExit(1, ['record-type', 'get', '--company', co, '--id', 'loan']);
    assert.equal(gone.stderr.trim(), "record type 'loan' not found");
  });

  it("import records: NDJSON and JSON arrays, all or nothing, with the API's messages", async () => {
    const co = 'cli-records';
    const ndjson = Array.from({ length: 1200 }, (_, i) => JSON.stringify({ id: `ucc-${i}`, record_type: 'uccfiling', status: 'filed', instance: { n: i } }));
    const imported = await expectExit(0, ['import', 'records', file('records.ndjson', `${ndjson.join('\n')}\n`), '--company', co]);
    assert.match(imported.stdout, /imported 1,200 records into company "cli-records" in [\d.]+ s \([\d,]+ records\/s\)/);
    await t.admin({ method: 'PUT', url: `/admin/v1/companies/${co}/record-types/loan`, payload: LOAN_TYPE });
    const loan = { id: 'loan-1', record_type: 'custom', uid: 'loan', fields: { Amount: 10, Borrower: 'Ada' } };
    const array = await expectExit(0, ['import', 'records', file('records.json', `\n [${JSON.stringify(loan)}]`), '--company', co, '--json'], {
      process: true,
    });
    assert.deepEqual(JSON.parse(array.stdout), { imported: 1 });

    const read = (await t.as(co, { url: '/v1/records/loan-1' })).json();
    assert.equal(read.status, 'new');
    assert.deepEqual(read.fields, { Amount: 10, Borrower: 'Ada' });
    assert.deepEqual(read.views, ['open', 'everything']);
    assert.equal((await t.as(co, { url: '/v1/records/ucc-1199' })).json().instance.n, 1199);

    // Bad lines, a wrong-typed field of the custom type and an existing id: refused whole, as POST refuses it.
    const bad = [
      JSON.stringify({ id: 'new-1', record_type: 'uccfiling', status: 'filed' }),
      '{oops',
      JSON.stringify({ record_type: 'custom', uid: 'loan', fields: { Amount: 'ten', Borrower: 'Bo' } }),
      JSON.stringify({ record_type: 'uccfiling', status: 'filed', bogus: 1 }),
    ].join('\n');
    const refused = await expectExit(1, ['import', 'records', file('bad.ndjson', bad), '--company', co]);
    const viaHttp = await t.admin({
      method: 'POST',
      url: `/admin/v1/companies/${co}/records`,
      headers: { 'content-type': 'application/x-ndjson' },
      payload: bad,
    });
    assert.equal(viaHttp.statusCode, 400);
    assert.equal(refused.stderr.split('\n')[0], `${join(dir, 'bad.ndjson')}: ${viaHttp.json().message}`);
    assert.match(refused.stderr, /\n {2}- \[1\] line 2: malformed JSON/);
    assert.match(refused.stderr, /\n {2}- \[2\]\.fields line 3: .*Amount/);
    assert.match(refused.stderr, /\n {2}- \[3\]\.bogus line 4: is not a property of the Record shape/);
    const nul = await expectExit(1, ['import', 'records', file('nul.ndjson', JSON.stringify({ record_type: 'a\u0000b', status: 's' })), '--company', co]);
    assert.match(nul.stderr, /\n {2}- \[0\]\.record_type line 1: text may not hold NUL characters or unpaired surrogates/);

    assert.equal((await t.as(co, { url: '/v1/records/new-1' })).statusCode, 404);
    const page = (await t.as(co, { url: '/v1/records?limit=100&record_type=custom' })).json();
    assert.deepEqual(
      page.results.map((record: { id: string }) => record.id),
      ['loan-1'],
    );
  });

  it('template put / get / delete, checked and trial-rendered like the PUT route', async () => {
    const co = 'cli-templates';
    const template = minimalTemplate();
    const put = await expectExit(0, ['template', 'put', '--company', co, '--id', 'invoice', file('template.json', template), '--json']);
    const summary = JSON.parse(put.stdout);
    assert.equal(summary.id, 'invoice');
    assert.equal(summary.pages, 1);
    const stored = await t.admin({ url: `/admin/v1/companies/${co}/templates/invoice` });
    assert.deepEqual(stored.json(), template);
    const got = await expectExit(0, ['template', 'get', '--company', co, '--id', 'invoice', '--json'], { process: true });
    assert.deepEqual(JSON.parse(got.stdout), template);

    // The body schema's outline: the route's message, naming the file instead of "body".
    const outline = { schemas: [[]], extra: true };
    const refused = await expectExit(1, ['template', 'put', '--company', co, '--id', 'other', file('outline.json', outline)]);
    const viaHttp = (await t.admin({ method: 'PUT', url: `/admin/v1/companies/${co}/templates/other`, payload: outline })).json();
    assert.equal(viaHttp.message, "invalid body: missing field 'basePdf'");
    assert.equal(refused.stderr.trim(), viaHttp.message.replace('invalid body', `invalid ${join(dir, 'outline.json')}`));

    const unrenderable = { ...template, schemas: [[{ ...template.schemas[0]![0]!, type: 'nosuch' }]] };
    const failed = await expectExit(1, ['template', 'put', '--company', co, '--id', 'other', file('nosuch.json', unrenderable)]);
    assert.match(failed.stderr, /^the template cannot render: .*nosuch/);
    const tooLarge = await expectExit(1, ['template', 'put', '--company', co, '--id', 'other', file('large.json', { ...template, pad: 'x'.repeat(2000) })], {
      env: { WRS_TEMPLATE_LIMIT_BYTES: '1024' },
    });
    assert.match(tooLarge.stderr, /large\.json is 2,\d{3} bytes; at most 1,024 are taken \(WRS_TEMPLATE_LIMIT_BYTES\)/);
    assert.equal((await t.admin({ url: `/admin/v1/companies/${co}/templates/other` })).statusCode, 404);

    assert.match((await expectExit(0, ['template', 'delete', '--company', co, '--id', 'invoice'])).stdout, /template "invoice" deleted/);
    assert.equal((await t.admin({ url: `/admin/v1/companies/${co}/templates/invoice` })).statusCode, 404);
  });

  it('checks add: Lob-shaped checks of both mail types, all or none, every problem listed as the POST route lists it', async () => {
    const co = 'cli-checks';
    const checks = [lobCheck({ id: 'chk_cli1' }), lobCheck({ id: 'chk_cli2', amount: 10.25, mail_type: 'ups_next_day_air' })];
    const added = await expectExit(0, ['checks', 'add', '--company', co, file('checks.json', checks)], { process: true });
    assert.equal(added.stdout.trim(), 'added 2 checks to company "cli-checks" (embedded provider)');
    const listed = (await t.as(co, { url: '/v1/checks?sort_by=date_created' })).json();
    assert.deepEqual(listed.results.map((check: { id: string }) => check.id).sort(), ['chk_cli1', 'chk_cli2']);
    assert.equal(listed.results.find((check: { id: string }) => check.id === 'chk_cli2').mail_type, 'ups_next_day_air');

    // Shape, rules and ids, all at once: the route's message, then its list, one problem a line.
    const nameless = lobCheck({ id: 'chk_cli3', amount: '10.25', extra: 1 });
    delete (nameless.to as Record<string, unknown>).name;
    delete (nameless.to as Record<string, unknown>).company;
    const invalid = [nameless, lobCheck({ id: 'chk_cli1' })];
    const refused = await expectExit(1, ['checks', 'add', '--company', co, file('invalid.json', invalid)]);
    const viaHttp = (await t.admin({ method: 'POST', url: `/admin/v1/companies/${co}/checks`, payload: invalid })).json();
    assert.equal(refused.stderr.split('\n')[0], viaHttp.message);
    assert.match(refused.stderr, /^invalid checks, nothing was added: 4 problem\(s\): /);
    assert.equal(
      refused.stderr.slice(refused.stderr.indexOf('\nerrors:\n')),
      '\nerrors:\n' +
        '  - [0].extra is not a field Lob documents here\n' +
        '  - [0].amount must be a number above 0 and at most 999999.99\n' +
        '  - [0].to needs a name or a company\n' +
        '  - [1].id a check with id chk_cli1 already exists\n',
    );
    const asJson = await expectExit(1, ['checks', 'add', '--company', co, '--json', file('invalid.json', invalid)]);
    assert.equal(asJson.stderr, refused.stderr);
    assert.equal((await t.as(co, { url: '/v1/checks' })).json().count, 2);
  });

  it('provider lob / show: the key from a file or stdin, never printed', async () => {
    const co = 'cli-provider';
    const key = 'test_cli0123456789abcdefWXYZ';
    const embedded = await expectExit(0, ['provider', 'show', '--company', co]);
    assert.match(embedded.stdout, /company "cli-provider" uses the embedded provider/);

    const set = await expectExit(0, ['provider', 'lob', '--company', co, '--key-file', file('lob.key', `${key}\n`)]);
    assert.match(set.stdout, /Lob key stored \(encrypted\) for company "cli-provider"; .* uses Lob with its own key \(ending WXYZ/);
    const status = (await t.admin({ url: `/admin/v1/companies/${co}/providers` })).json();
    assert.deepEqual(status.lob.key_last4, 'WXYZ');
    assert.equal(status.provider, 'lob');
    const shown = await expectExit(0, ['provider', 'show', '--company', co, '--json']);
    assert.deepEqual(JSON.parse(shown.stdout), status);

    const other = 'test_from_stdin_0123456789AbCd';
    const piped = await expectExit(0, ['provider', 'lob', '--company', co, '--json'], { stdin: other });
    assert.equal(JSON.parse(piped.stdout).lob.key_last4, 'AbCd');
    assert.equal((await t.admin({ url: `/admin/v1/companies/${co}/providers` })).json().lob.key_last4, 'AbCd');

    const short = await expectExit(1, ['provider', 'lob', '--company', co, '--key-file', '-'], { stdin: 'short' });
    const viaHttp = (await t.admin({ method: 'PUT', url: `/admin/v1/companies/${co}/providers/lob`, payload: { api_key: 'short' } })).json();
    assert.equal(short.stderr.trim(), viaHttp.message.replace('invalid body', 'invalid Lob key'));
    assert.match(
      (await expectExit(1, ['provider', 'lob', '--company', co, '--key-file', join(dir, 'none.key')])).stderr,
      /cannot read the key from .*none\.key/,
    );
    assert.equal((await t.admin({ url: `/admin/v1/companies/${co}/providers` })).json().lob.key_last4, 'AbCd');
    for (const run of [set, shown, piped, short]) {
      assert.ok(!`${run.stdout}${run.stderr}`.includes(key) && !`${run.stdout}${run.stderr}`.includes(other));
    }
  });

  it('usage errors exit 2, config errors 78', async () => {
    assert.match((await expectExit(2, ['checks', 'add', join(dir, 'x.json')])).stderr, /--company is required/);
    assert.match((await expectExit(2, ['record-type'], { process: true })).stderr, /record-type takes one of: put, get, delete, list/);
    // No option takes the Lob key itself (it would show in `ps`).
    assert.match((await expectExit(2, ['provider', 'lob', '--company', 'x', '--key', 'test_0123456789abcdef'])).stderr, /Unknown option '--key'/);
    assert.match((await expectExit(2, ['provider', 'show', '--company', 'c'.repeat(201)])).stderr, /--company must be at most 200 characters/);
    assert.match(
      (await expectExit(78, ['provider', 'show', '--company', 'x'], { env: { WRS_ENCRYPTION_KEY: 'not-hex' }, process: true })).stderr,
      /WRS_ENCRYPTION_KEY/,
    );
  });
});
