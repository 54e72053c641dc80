import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { anEvent, ingestOk } from '../events/event-fixtures.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { cliEnv, runCli, type CliRun } from '../helpers/cli-process.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineRecordType, INVOICE_TYPE } from '../pdf/fixtures/records.js';
import { expectStatus } from '../records/fixtures.js';
import { assertSameExport, exportOf } from './export-fixtures.js';

function expectRun(run: CliRun, status: number): CliRun {
  assert.equal(run.status, status, `stdout: ${run.stdout}\nstderr: ${run.stderr}`);
  return run;
}

/**
 * An export to stdout and the first import run the real CLI in a process of its own; the other
 * runs are in this process (an export streams to stdout itself, so those always take a process).
 */
describe('wrs export and wrs import company', () => {
  let dir: string;
  let source: TestApp;
  const sourceFile = () => join(dir, 'source.db');
  const targetFile = () => join(dir, 'target.db');

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wrs-export-cli-'));
    source = await createTestApp('sqlite', {
      env: { WRS_WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
      database: { kind: 'sqlite', url: `sqlite:${sourceFile()}`, drop: async () => undefined },
    });
    await defineRecordType(source, 'acme', 'invoice', INVOICE_TYPE);
    await createRecord(source, 'acme', 'invoice', { f_customer: 'Ada' });
    await ingestOk(source, 'acme', [anEvent({ id: 'cli-1' }), anEvent({ id: 'cli-2' })]);
    expectStatus(await source.as('acme', { method: 'POST', url: '/v1/webhooks', payload: { url: 'http://127.0.0.1:9/hook', events: ['*'] } }), 201);
  });
  after(async () => {
    await source?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exports to a file, imports it into another database, which then exports the same lines', async () => {
    const file = join(dir, 'acme.ndjson');
    const exported = expectRun(await runCliInProcess(['export', '--company', 'acme', '--out', file], cliEnv(sourceFile())), 0);
    assert.equal(exported.stdout, '');
    assert.match(
      exported.stderr,
      /^exported \d+ items of company acme to .*acme\.ndjson in [\d.]+ s \(company_settings 0, record_types 1, records 1, .*events 2\)\n$/,
    );
    assert.equal(existsSync(`${file}.partial`), false);
    const text = readFileSync(file, 'utf8');
    assertSameExport(text, await exportOf(source, 'acme'));

    const toStdout = expectRun(await runCli(['export', '--company', 'acme'], cliEnv(sourceFile())), 0);
    assertSameExport(text, toStdout.stdout);

    const imported = expectRun(await runCli(['import', 'company', file], cliEnv(targetFile())), 0);
    assert.match(
      imported.stdout,
      /^imported \d+ items into company acme in [\d.]+ s \(.*events 2\)\n {2}from a sqlite deployment \(wrs [\d.]+\), exported at /,
    );
    assert.match(imported.stdout, /give each receiver its new one:\n {4}\S+ http:\/\/127\.0\.0\.1:9\/hook whsec_\S+\n$/);
    const again = expectRun(await runCli(['export', '--company', 'acme'], cliEnv(targetFile())), 0);
    assertSameExport(text, again.stdout);

    const twice = expectRun(await runCliInProcess(['import', 'company', file], cliEnv(targetFile())), 1);
    assert.match(
      twice.stderr,
      /acme\.ndjson: company 'acme' already has data on this deployment \(in .*\); an import only fills a company that has none: nothing was imported/,
    );
    assert.doesNotMatch(twice.stderr, /\n\s+at /);
  });

  it('refuses a damaged file with one plain message, importing nothing', async () => {
    const file = join(dir, 'damaged.ndjson');
    const text = expectRun(await runCli(['export', '--company', 'acme'], cliEnv(sourceFile())), 0).stdout;
    writeFileSync(file, text.replace('"cli-2"', '"cli-3"'));
    const run = expectRun(await runCliInProcess(['import', 'company', file], cliEnv(join(dir, 'empty.db'))), 1);
    assert.match(run.stderr, /damaged\.ndjson: its checksum does not match its lines \(the file was altered or damaged\): nothing was imported\n$/);
    const empty = expectRun(await runCli(['export', '--company', 'acme'], cliEnv(join(dir, 'empty.db'))), 0);
    assert.equal(empty.stdout.trim().split('\n').length, 2);
  });

  it('names a missing --company and a missing FILE as usage errors', async () => {
    expectRun(await runCliInProcess(['export'], cliEnv(sourceFile())), 2);
    expectRun(await runCliInProcess(['import', 'company'], cliEnv(sourceFile())), 2);
    const missing = expectRun(await runCliInProcess(['import', 'company', join(dir, 'nope.ndjson')], cliEnv(sourceFile())), 1);
    assert.match(missing.stderr, /cannot read .*nope\.ndjson/);
  });
});
