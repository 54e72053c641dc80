#!/usr/bin/env node
// Runs every test/**/*.test.ts with Node's test runner, one process per file and two files at a
// time (scripts/run-test-files.mjs), the slowest files first (slowest-test-files.mjs). The files
// run transpiled ahead of time, from the mirror of the checkout scripts/test-build.mjs builds
// first in .test-build/, rather than through tsx in every process (docs/development.md, "Tests").
// Arguments filter the files by substring of their path in test/: `npm test -- events records`.
// A full run (no filter) first runs the lint and format check (`npm run lint`, Biome) and stops on
// its errors; a filtered run skips it, being for a few files while the work is under way.
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SLOWEST_TEST_FILES } from './slowest-test-files.mjs';
import { buildTestMirror } from './test-build.mjs';

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findTests(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The known slow files in their order, before the others by name. */
function slowestFirst(a, b) {
  const rank = (file) => {
    const index = SLOWEST_TEST_FILES.indexOf(file);
    return index < 0 ? SLOWEST_TEST_FILES.length : index;
  };
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

const filters = process.argv.slice(2);
const files = findTests('test')
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort(slowestFirst);
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}
if (filters.length === 0) {
  const lint = spawnSync('npm', ['run', '--silent', 'lint'], { stdio: 'inherit' });
  if (lint.status !== 0) {
    console.error('npm run lint failed: `npx biome check --write` fixes what it can (see docs/architecture.md, Linting and formatting)');
    process.exit(lint.status ?? 1);
  }
}
if (process.env.WRS_TEST_PG_URL) {
  console.log(`PostgreSQL tests: running against ${process.env.WRS_TEST_PG_URL.replace(/\/\/[^@]*@/, '//')}`);
} else {
  console.log('PostgreSQL tests: SKIPPED (set WRS_TEST_PG_URL=postgres://... to run them); SQLite only');
}
const mirror = await buildTestMirror();
// --enable-source-maps (which the runner passes on to every file's process, as tsx did its hook):
// stack traces name the lines of the .ts sources.
const transpiled = files.map((file) => join(mirror.dir, file.replace(/\.ts$/, '.js')));
const result = spawnSync(process.execPath, ['--enable-source-maps', 'scripts/run-test-files.mjs', ...transpiled], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'test' },
});
rmSync(mirror.dir, { recursive: true, force: true });
process.exit(result.status ?? 1);
