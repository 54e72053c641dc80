import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { baseServiceEnv, startScriptEnv } from '../../bench/lib/bench-service.js';

const packageWithStart = (start: string): URL => {
  const file = join(mkdtempSync(join(tmpdir(), 'wrs-start-')), 'package.json');
  writeFileSync(file, JSON.stringify({ scripts: { start } }));
  return pathToFileURL(file);
};

describe('the bench launches the service as npm start does', () => {
  it("sets the variables the project's start script sets before node", () => {
    assert.deepEqual(startScriptEnv(), { MALLOC_MMAP_THRESHOLD_: '131072' });
    assert.equal(baseServiceEnv(3000, 'sqlite::memory:').MALLOC_MMAP_THRESHOLD_, '131072');
  });

  it('reads any number of assignments, none included', () => {
    assert.deepEqual(startScriptEnv(packageWithStart('A=1 B=x=y node dist/cli/main.js serve')), { A: '1', B: 'x=y' });
    assert.deepEqual(startScriptEnv(packageWithStart('node dist/cli/main.js serve')), {});
  });

  it('refuses a start script it cannot read rather than launching something else', () => {
    assert.throws(() => startScriptEnv(packageWithStart('tsx src/cli/main.ts serve')), /not "\[NAME=value \.\.\.\] node/);
  });
});
