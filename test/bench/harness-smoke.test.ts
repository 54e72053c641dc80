import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

// A smoke-size run of the benchmark harness (tiny data, a quarter second per scenario), so that it cannot
// rot. It checks that every scenario ran and answered without errors, not how fast.
describe('benchmark harness (smoke run)', () => {
  const out = mkdtempSync(join(tmpdir(), 'wrs-bench-smoke-'));
  after(() => rmSync(out, { recursive: true, force: true }));

  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--smoke', '--out', out, ...args], {
      encoding: 'utf8',
      timeout: 240_000,
    });

  it('runs every scenario and writes the Markdown table (profiling the service)', () => {
    const profileDir = join(out, 'profile');
    const result = run('--profile', profileDir);
    assert.equal(result.status, 0, result.stderr.slice(-3000));
    const file = readdirSync(out).find((name) => name.endsWith('-sqlite-smoke.md'));
    assert.ok(file, 'a results file is written');
    const report = readFileSync(join(out, file), 'utf8');
    const cellsOf = (line: string) => line.split('|').map((cell) => cell.trim());
    const errorsColumn = cellsOf(report.split('\n').find((line) => line.startsWith('| scenario |'))!).indexOf('errors');
    assert.ok(errorsColumn > 0, 'the table has an errors column');
    for (const scenario of [
      'ingest events',
      'import records',
      'baseline: bare',
      'baseline: raw driver',
      'baseline: prebuilt bytes, 100-event page',
      'baseline: prebuilt bytes, 10,000-event page',
      'record-get',
      'record-get-spread',
      'baseline: Fastify (request logger, no hooks) + raw driver + stored JSON joined, events exact filter',
      'events-exact',
      'events-repeat',
      'events-304',
      'events-contains',
      'events-deep',
      'events-10000',
      'records-walk',
      'record-create',
      'record-patch',
      'checks',
      'pdf-burst',
      'feed-follow',
      'stream-fanout',
      'console first load',
    ]) {
      const row = report.split('\n').find((line) => line.startsWith(`| ${scenario}`));
      assert.ok(row, `row for ${scenario}`);
      const errors = cellsOf(row)[errorsColumn];
      assert.ok(errors === '' || errors === '0', `${scenario} had errors: ${row}`);
    }

    // --profile: the service's CPU profile and each phase's times, read back per phase.
    const { servicePid, phases } = JSON.parse(readFileSync(join(profileDir, 'phases.json'), 'utf8'));
    assert.ok(readdirSync(profileDir).some((name) => name.includes(`.${servicePid}.0.`) && name.endsWith('.cpuprofile')));
    assert.ok(phases.some((phase: { name: string }) => phase.name === 'record-get'));
    const summary = spawnSync(process.execPath, ['--import', 'tsx', 'bench/profile-phases.ts', profileDir, '--phase', 'record-get', '--top', '3'], {
      encoding: 'utf8',
    });
    assert.equal(summary.status, 0, summary.stderr);
    assert.match(summary.stdout, /^## record-get: [\d.]+ s, busy [\d.]+ s \([\d.]+%\)/m);
    assert.equal(summary.stdout.match(/^ {2,}[\d.]+% {2}\S/gm)?.length, 3, summary.stdout);
  });

  it('refuses a --service-env that is not KEY=VALUE', () => {
    const result = run('--service-env', 'MALLOC_ARENA_MAX');
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /--service-env takes KEY=VALUE, not "MALLOC_ARENA_MAX"/);
  });

  it('holds mixed load in soak mode with no errors', () => {
    const result = run('--soak', '--minutes', '0.02', '--service-env', 'MALLOC_ARENA_MAX=2');
    assert.equal(result.status, 0, result.stderr.slice(-3000));
    const file = readdirSync(out).find((name) => name.includes('-soak-smoke.md'));
    assert.ok(file);
    const report = readFileSync(join(out, file), 'utf8');
    assert.match(report, /^- service started with: `MALLOC_ARENA_MAX=2`$/m);
    assert.match(report, /- errors: 0 /);
    assert.match(report, /\| seconds \| RSS MB \|/);
  });

  it('runs two builds side by side, B on its own copy of the data A loaded', () => {
    const file = join(out, 'side-by-side.md');
    const result = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'bench/side-by-side.ts',
        '--smoke',
        '--a',
        '.',
        '--b',
        '.',
        '--own-databases',
        '--scenarios',
        'record-get',
        '--rounds',
        '1',
        '--seconds',
        '0.25',
        '--warmup',
        '0',
        '--out',
        file,
      ],
      { encoding: 'utf8', timeout: 240_000 },
    );
    assert.equal(result.status, 0, result.stderr.slice(-3000));
    const report = readFileSync(file, 'utf8');
    assert.match(report, /loaded once by A, B on a copy of it/);
    const round = report.split('\n').find((line) => line.startsWith('| 1 |'));
    assert.ok(round, report);
    assert.ok(!/errors/.test(round), round);
  });
});
