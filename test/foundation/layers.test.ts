// The layer rules of docs/architecture.md (written in .dependency-cruiser.cjs) hold for src/.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { PROJECT_ROOT } from '../helpers/project-root.js';

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: { name: string }[];
}

const root = PROJECT_ROOT;

function describe(violation: Violation): string {
  const path = violation.cycle ? [violation.from, ...violation.cycle.map((step) => step.name)] : [violation.from, violation.to];
  return `${violation.rule.name}: ${path.join(' -> ')}`;
}

test('src/ follows the layer rules and has no import cycle', () => {
  const run = spawnSync(
    process.execPath,
    ['node_modules/dependency-cruiser/bin/dependency-cruise.mjs', ...['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json']],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  assert.ok(run.stdout.startsWith('{'), `dependency-cruiser did not run: ${run.stderr}`);
  const { summary } = JSON.parse(run.stdout) as { summary: { violations: Violation[] } };
  const found = summary.violations.map(describe);
  assert.deepEqual(found, [], `${found.length} layer rule violations:\n${found.join('\n')}`);
});
