#!/usr/bin/env node
// Runs every test/**/*.test.ts with Node's test runner (through tsx), once per process.
// Arguments filter the files by substring: `npm test -- events records`.
// A full run (no filter) first runs the lint and format check (`npm run lint`, Biome) and stops on
// its errors; a filtered run skips it, being for a few files while the work is under way.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findTests(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const filters = process.argv.slice(2);
const files = findTests('test')
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();
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
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=2',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/file-times-reporter.mjs',
    '--test-reporter-destination=stdout',
    ...files,
  ],
  {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'test' },
  },
);
process.exit(result.status ?? 1);
