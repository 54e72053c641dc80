// Every shell example of the README and the guides in docs/ runs as written against the demo
// `npm start` serves, and answers the status its `# -> NNN` comment says.
//
// The convention: a ```sh block runs; a ```sh norun block is shown only (production settings,
// PostgreSQL, files the reader does not have, benchmark runs, npm test); any other shell-like
// info string is refused. Every curl in a runnable block is followed by a `# -> NNN` comment.
// Each file's runnable blocks run in order in one bash process (`set -euo pipefail`), in a fresh
// folder, with BASE, TOKEN and ADMIN_TOKEN exported as the demo's start screen prints them; a
// failing command or a status other than the annotated one names the file and line. The files
// share one demo per database, so each creates the data its examples need and none depends on
// another. Runs on SQLite, and on PostgreSQL too when WRS_TEST_PG_URL is set.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createMigratedTestDatabase, describeEachDatabase, type TestDatabase } from '../helpers/databases.js';
import { bashScript, blockKind, codeBlocks, curlCalls, docFiles, readReport, type DocBlock } from './doc-blocks.js';
import { CLI_COMMAND, ROOT, startDemo, type DemoService } from './demo-service.js';

const FILE_LIMIT_MS = 45_000;

const files = docFiles(ROOT).map((file) => {
  const blocks = codeBlocks(file, readFileSync(join(ROOT, file), 'utf8'));
  return { file, blocks };
});

const runnable = (blocks: readonly DocBlock[]) => blocks.filter((block) => blockKind(block) === 'run');

describe('docs: the shell examples follow the convention', () => {
  it('writes every shell block as ```sh or ```sh norun', () => {
    const problems: string[] = [];
    for (const { blocks } of files) {
      for (const block of blocks) {
        try {
          blockKind(block);
        } catch (error) {
          problems.push((error as Error).message);
        }
      }
    }
    assert.deepEqual(problems, []);
  });

  it('annotates every curl of a runnable block with the status it answers', () => {
    const missing = files.flatMap(({ blocks }) =>
      runnable(blocks).flatMap((block) =>
        curlCalls(block)
          .filter((call) => call.expected === undefined)
          .map((call) => `${block.file}:${call.line}`),
      ),
    );
    assert.deepEqual(missing, [], 'each curl needs a `# -> NNN ...` comment after it');
  });

  it('has runnable examples in the README and in the guides', () => {
    const withExamples = files.filter(({ blocks }) => runnable(blocks).length > 0).map(({ file }) => file);
    for (const file of ['README.md', 'docs/events.md', 'docs/records.md', 'docs/record-tokens.md', 'docs/pdf-step.md', 'docs/checks.md', 'docs/operator.md']) {
      assert.ok(withExamples.includes(file), `${file} has no runnable example`);
    }
  });

  it('keeps the quick start to the two commands', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    assert.match(readme, /^npm ci && npm start\b/m);
    assert.match(readme, /^npm test\b/m);
  });
});

interface FileRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

function runBash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<FileRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: FILE_LIMIT_MS, killSignal: 'SIGKILL' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
  });
}

const tail = (text: string, lines = 15, chars = 2_000) => text.trimEnd().split('\n').slice(-lines).join('\n').slice(-chars);

/** Runs one file's runnable blocks; returns what went wrong, each naming the file and line. */
async function runFile(file: string, blocks: readonly DocBlock[], demo: DemoService): Promise<string[]> {
  const work = mkdtempSync(join(demo.dir, 'shell-'));
  const sideFile = join(work, '.statuses');
  writeFileSync(sideFile, '');
  const script = bashScript(blocks, CLI_COMMAND);
  try {
    const run = await runBash(`exec 9>>${JSON.stringify(sideFile)}\n${script.text}`, work, demo.shellEnv);
    const report = readReport(sideFile);
    const problems: string[] = [];
    blocks.forEach((block, index) => {
      const calls = curlCalls(block);
      const got = report.statuses.get(index);
      if (!got) return;
      calls.forEach((call, n) => {
        if (n >= got.length) return;
        if (got[n] !== call.expected) problems.push(`${file}:${call.line}: curl answered ${got[n]}, the example says ${call.expected}`);
      });
      const finished = report.statuses.has(index + 1) || (run.exitCode === 0 && index === blocks.length - 1);
      if (finished && got.length !== calls.length) {
        problems.push(`${file}:${block.firstLine}: the block made ${got.length} curl call(s) but writes ${calls.length}`);
      }
    });
    if (run.exitCode !== 0) {
      // the script's first line is the `exec 9>>` added above
      const failedAt = report.failed && script.origin.get(report.failed.scriptLine - 1);
      problems.push(
        failedAt
          ? `${file}:${failedAt}: the command failed (exit status ${report.failed!.status})`
          : `${file}: the examples stopped (exit status ${run.exitCode}${run.exitCode === null ? ', timed out' : ''})`,
      );
    }
    if (problems.length > 0) {
      problems.push(`-- stdout (last lines):\n${tail(run.stdout)}`, `-- stderr:\n${tail(run.stderr)}`);
      if (report.curlErrors.length) problems.push(`-- curl:\n${report.curlErrors.join('\n')}`);
    }
    return problems;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// The two databases' demos share nothing, and a file's examples mostly wait on curl and the
// demo: both suites run at the same time.
describeEachDatabase(
  'docs: the runnable examples against the demo',
  (kind) => {
    let database: TestDatabase | undefined;
    let demo: DemoService;
    before(async () => {
      // Migrated already (a copy of the test processes' template): the demo's start has less to do.
      if (kind === 'postgres') database = await createMigratedTestDatabase('postgres');
      demo = await startDemo(database?.url);
    });
    after(async () => {
      await demo?.stop();
      await database?.drop();
    });

    for (const { file, blocks } of files) {
      const examples = runnable(blocks);
      if (examples.length === 0) continue;
      it(`${file}: ${examples.length} block(s) run and answer the statuses they show`, { timeout: FILE_LIMIT_MS + 5_000 }, async () => {
        const problems = await runFile(file, examples, demo);
        assert.equal(problems.length, 0, `\n${problems.join('\n')}\n-- demo output (last lines):\n${tail(demo.output())}`);
      });
    }
  },
  { concurrently: true },
);
