// The client, its example and the client suite (whose assertions read the real answers through
// the generated types) compile with tsc: a wrong field name there fails `npm test`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { it } from 'node:test';
import { PROJECT_ROOT } from '../helpers/project-root.js';

const root = PROJECT_ROOT;

/** Runs `tsc --noEmit --listFiles -p <project>`; answers its exit status, its output and the files it checked. */
function typeCheck(project: string): Promise<{ status: number | null; output: string; files: string[] }> {
  return new Promise((resolve, reject) => {
    const tsc = spawn(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '--listFiles', '-p', project], { cwd: root });
    let output = '';
    tsc.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    tsc.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    tsc.on('error', reject);
    tsc.on('close', (status) => {
      const lines = output.split('\n');
      resolve({ status, output: lines.filter((line) => !line.startsWith('/')).join('\n'), files: lines.filter((line) => line.startsWith('/')) });
    });
  });
}

const checked = async (project: string, mustInclude: string[]) => {
  const { status, output, files } = await typeCheck(project);
  assert.equal(status, 0, `tsc -p ${project} failed:\n${output}`);
  for (const file of mustInclude) assert.ok(files.includes(join(root, file)), `tsc -p ${project} did not check ${file}`);
};

it('the client package and its example type-check (tsc -p clients/typescript)', () =>
  checked('clients/typescript', ['clients/typescript/src/index.ts', 'clients/typescript/src/schema.ts', 'clients/typescript/examples/quick-start.ts']));

it('the client suite type-checks against the generated types (tsc -p test/client)', () =>
  checked('test/client', ['test/client/client-operations.ts', 'clients/typescript/src/schema.ts']));
