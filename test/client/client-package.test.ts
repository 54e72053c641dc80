// The client as an integrator gets it: `npm pack`, installed from the tarball into a folder of
// its own (not under the repository, so nothing resolves from its node_modules), a program
// compiled with `tsc --strict` against the installed declarations, run against the service.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { DEMO_COMPANY_ID } from '../../src/cli/welcome.js';
import { seedDemo } from '../../src/demo/seed-demo.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { mustRun, npmPack } from '../helpers/packed-package.js';
import { PROJECT_ROOT } from '../helpers/project-root.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { FAST_WEBHOOKS } from '../webhooks/receiver.js';

const root = PROJECT_ROOT;
const fixture = join(PROJECT_ROOT, 'test/client/consumer/');
const typesNodeVersion = (JSON.parse(readFileSync(join(root, 'node_modules/@types/node/package.json'), 'utf8')) as { version: string }).version;

let scratch: string;
let consumer: string;

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'wrs-client-package-'));
  assert.ok(!scratch.startsWith(root), 'the consumer folder is outside the repository');
  const tarball = await npmPack(join(root, 'clients/typescript'), scratch);
  const listed = await mustRun('tar', ['tzf', tarball], scratch);
  assert.match(listed.output, /package\/dist\/index\.js/);
  assert.match(listed.output, /package\/dist\/index\.d\.ts/);
  assert.doesNotMatch(listed.output, /package\/src\//, 'built JavaScript and declarations only');

  consumer = join(scratch, 'consumer');
  mkdirSync(consumer);
  for (const file of readdirSync(fixture)) copyFileSync(join(fixture, file), join(consumer, file));
  // The registry only for what the npm cache lacks: the tarball's dependencies and @types/node.
  const install = await mustRun('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, `@types/node@${typesNodeVersion}`], consumer);
  console.log(`client tarball installed in ${install.ms} ms`);
  const compiled = await mustRun(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', consumer], consumer);
  console.log(`consumer compiled with tsc --strict in ${compiled.ms} ms`);
});
after(() => rmSync(scratch, { recursive: true, force: true }));

describeEachDatabase('the packed client, installed from its tarball', (kind) => {
  let t: TestApp;
  let base: string;

  before(async () => {
    t = await createTestApp(kind, { env: { ...FAST_WEBHOOKS, WRS_PUBLIC_URL: undefined as unknown as string } });
    await seedDemo(t.ctx, DEMO_COMPANY_ID);
    t.ctx.webhookDelivery.start();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(() => t.close());

  it('a program compiled under tsc --strict calls the service, and verifies a webhook delivery', async () => {
    const env = { PATH: process.env.PATH, BASE: base, TOKEN: await t.userToken(DEMO_COMPANY_ID, 'demo-user') };
    const { output } = await mustRun(process.execPath, [join(consumer, 'build/program.js')], consumer, env);
    assert.match(output, /^events: 2 of \d+$/m);
    assert.match(output, /^created (\S+) in views pipeline, all-loans$/m);
    const id = /^created (\S+)/m.exec(output)![1]!;
    assert.match(output, new RegExp(`^verified record.created of ${id}, fields \\{"Borrower":"Packaged Client"`, 'm'));
    assert.match(output, /^a forged body: WebhookVerificationError$/m);
    assert.match(output, /^a missing record: 404 not_found$/m);
  });
});
