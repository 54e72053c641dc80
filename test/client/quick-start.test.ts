// The client README's example program runs against the demo `npm start` seeds, and prints what it promises.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { DEMO_COMPANY_ID } from '../../src/cli/welcome.js';
import { seedDemo } from '../../src/demo/seed-demo.js';
import { PROJECT_ROOT } from '../helpers/project-root.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const root = PROJECT_ROOT;

function runExample(env: Record<string, string>): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const example = spawn(process.execPath, ['--import', 'tsx', 'clients/typescript/examples/quick-start.ts'], {
      cwd: root,
      env: { ...process.env, ...env },
    });
    let output = '';
    example.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    example.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    example.on('error', reject);
    example.on('close', (status) => resolve({ status, output }));
  });
}

let t: TestApp;
let base: string;

before(async () => {
  t = await createTestApp('sqlite', { env: { WRS_PUBLIC_URL: undefined as unknown as string } });
  await seedDemo(t.ctx, DEMO_COMPANY_ID);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
after(() => t.close());

it('clients/typescript/examples/quick-start.ts runs against the demo company with BASE and TOKEN', async () => {
  const { status, output } = await runExample({ BASE: base, TOKEN: await t.userToken(DEMO_COMPANY_ID, 'demo-user') });
  assert.equal(status, 0, output);
  assert.match(output, /3 latest session starts:/);
  assert.match(output, /pipeline: demo-loan-01 \(new\), demo-loan-02 \(in_review\)/);
  assert.match(output, /demo-loan-01 is now in_review, in views pipeline, all-loans/);
  assert.match(output, /the record token reads demo-loan-01; another record answers 403 forbidden/);
  assert.match(output, /a missing record: 404 not_found: record 'no-such-record' not found/);
  assert.match(output, /latest checks: chk_\w+ \$[\d.]+, chk_\w+ \$[\d.]+, chk_\w+ \$[\d.]+\n/);
});
