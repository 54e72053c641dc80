import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { ROOT } from './cli-process.js';

/**
 * Runs an ES module script in a fresh Node process of its own (its heap and V8 flags untouched
 * by the test runner's), with `nodeFlags` before it and TypeScript imports allowed; answers the
 * JSON it prints.
 */
export function runHeapProbe<Result>(script: string, nodeFlags: readonly string[] = []): Result {
  const run = spawnSync(process.execPath, [...nodeFlags, '--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as Result;
}
