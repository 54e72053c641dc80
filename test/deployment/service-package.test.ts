// The service as someone gets it from its tarball: `npm pack`, `npm install ./wrs-*.tgz` in an
// empty folder, `npx wrs serve` there (its data in that folder's data/), and `npx wrs` from
// another folder finding the same data.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { SQLITE_DRIVER_MODULE } from '../../src/storage/sqlite-driver.js';
import { parseStartScreen, plainText } from '../helpers/cli-process.js';
import { mustRun, newestChange, npmEnvironment, npmPack } from '../helpers/packed-package.js';
import { PROJECT_ROOT } from '../helpers/project-root.js';

const root = PROJECT_ROOT;
const driverPackage = (base: string) => join(base, 'node_modules', SQLITE_DRIVER_MODULE);
const driverVersion = (JSON.parse(readFileSync(join(driverPackage(root), 'package.json'), 'utf8')) as { version: string }).version;
const DRIVER_BINARY = 'build/Release/better_sqlite3.node';

/** A development start with nothing set but what a newcomer sets: the port and quiet logs. */
const development = (extra: NodeJS.ProcessEnv = {}) => npmEnvironment({ NODE_ENV: 'development', WRS_LOG_LEVEL: 'warn', WRS_PDF_WORKERS: '1', ...extra });

let scratch: string;
let project: string;

before(async () => {
  // The tarball holds dist/ as built; `npm pack` alone rebuilds it first (prepare), which the
  // other test files may be running at this moment.
  const built = statSync(join(root, 'dist/cli/main.js')).mtimeMs;
  assert.ok(built >= newestChange(join(root, 'src')), 'dist/ is older than src/: run `npm run build` first');
  scratch = mkdtempSync(join(tmpdir(), 'wrs-service-package-'));
  const tarball = await npmPack(root, scratch, ['--ignore-scripts']);
  const listed = (await mustRun('tar', ['tzf', tarball], scratch)).output.split('\n');
  for (const file of ['dist/cli/main.js', 'dist/storage/migrations/0001_events.js', 'dist/providers/pdf/pdfme-generate.js', 'dist/web/app/index.html']) {
    assert.ok(listed.includes(`package/${file}`), `the tarball holds ${file}`);
  }
  assert.ok(!listed.some((file) => file.startsWith('package/src/') || file.startsWith('package/test/')), 'no sources or tests in the tarball');

  project = join(scratch, 'project');
  mkdirSync(project);
  // The native SQLite binding: without a reachable prebuilt download better-sqlite3 12's install
  // script compiles SQLite (minutes on a busy machine), so the scripts are skipped and the binding
  // `npm ci` built here for this Node and this driver version is put in place (docs/development.md
  // says why).
  const pinnedDriver =
    SQLITE_DRIVER_MODULE === 'better-sqlite3' ? `better-sqlite3@${driverVersion}` : `${SQLITE_DRIVER_MODULE}@npm:better-sqlite3@${driverVersion}`;
  const install = await mustRun('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball, pinnedDriver], project);
  console.log(`service tarball installed in ${install.ms} ms`);
  // better-sqlite3 13 carries its prebuilt Node-API binaries in the package (no install script);
  // only 12 builds one at install.
  if (existsSync(join(driverPackage(root), DRIVER_BINARY))) {
    mkdirSync(join(driverPackage(project), 'build/Release'), { recursive: true });
    copyFileSync(join(driverPackage(root), DRIVER_BINARY), join(driverPackage(project), DRIVER_BINARY));
  }
});
after(() => rmSync(scratch, { recursive: true, force: true }));

it('`npx wrs serve` starts on data/ in the folder it was installed in; `npx wrs token` from other folders finds it', async () => {
  const server = spawn('npx', ['wrs', 'serve'], { cwd: project, env: development({ PORT: '0' }), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  server.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
  server.stderr.setEncoding('utf8').on('data', (text: string) => (output += text));
  const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
  let minted: Promise<{ cwd: string; token: string }[]> | undefined;
  try {
    const screen = await new Promise<NonNullable<ReturnType<typeof parseStartScreen>>>((resolve, reject) => {
      const poll = setInterval(() => {
        const parsed = parseStartScreen(output);
        if (parsed) resolve(parsed);
        else if (server.exitCode !== null) reject(new Error(`wrs serve exited ${server.exitCode}:\n${output}`));
        else return;
        clearInterval(poll);
      }, 100);
    });
    assert.match(plainText(output), new RegExp(`data: ${join(project, 'data', 'wrs.db').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.ok(existsSync(join(project, 'data', 'dev-secrets.json')), 'the secrets beside the database, in the project');

    // A folder below the project, where npx finds the project's wrs, and one outside it, which
    // names the project. Both tokens are minted while the service is checked: each npx start
    // takes seconds.
    const below = join(project, 'scripts', 'nightly');
    const outside = join(scratch, 'elsewhere');
    const minting = (
      [
        [below, ['wrs']],
        [outside, ['--prefix', project, 'wrs']],
      ] as const
    ).map(async ([cwd, npxArgs]) => {
      mkdirSync(cwd, { recursive: true });
      const minted = await mustRun('npx', [...npxArgs, 'token', '--company', 'demo-company', '--user', 'ada'], cwd, development());
      return { cwd, token: minted.output.trim().split('\n').at(-1)! };
    });
    minted = Promise.all(minting);
    // Handled at once: a check below may fail before the tokens are awaited.
    minted.catch(() => undefined);

    for (const probe of ['/healthz', '/readyz']) assert.equal((await fetch(`${screen.base}${probe}`)).status, 200, probe);
    const records = await fetch(`${screen.base}/v1/records?view_id=pipeline`, { headers: { authorization: `Bearer ${screen.token}` } });
    assert.equal(records.status, 200);
    assert.ok(((await records.json()) as { count: number }).count > 0, 'the demo company was seeded');
    const consolePage = await fetch(`${screen.base}/app/`);
    assert.equal(consolePage.status, 200, 'the console comes from the installed dist/web');
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(await consolePage.text())?.[1];
    assert.ok(script, 'the console page names its script');
    assert.equal((await fetch(`${screen.base}${script}`)).status, 200, script);

    for (const { cwd, token } of await minted) {
      const answer = await fetch(`${screen.base}/v1/events?limit=1`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(answer.status, 200, `a token minted in ${cwd} signs with the project's data folder`);
      assert.ok(!existsSync(join(cwd, 'data')), 'no second data folder where the command ran');
    }
  } finally {
    if (server.exitCode === null) process.kill(-server.pid!, 'SIGTERM');
    await exited;
    await minted?.catch(() => undefined);
  }
});
