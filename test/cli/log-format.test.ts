import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createProcessLog } from '../../src/cli/serve/process-log.js';
import { CLI_NODE_ARGS, parseStartScreen, plainText, startProcess, startServe, type RunningProcess, type StartScreen } from '../helpers/cli-process.js';

/** util-linux `script` runs a command under a pseudo-terminal, as a developer's shell would. */
const HAS_SCRIPT = spawnSync('script', ['--version'], { encoding: 'utf8' }).stdout?.includes('util-linux') ?? false;

const shellQuote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** Requests the demo events with the printed token; answers the status. */
async function listEvents(screen: StartScreen): Promise<number> {
  const answer = await fetch(`${screen.base}/v1/events?limit=1`, { headers: { authorization: `Bearer ${screen.token}` } });
  await answer.arrayBuffer();
  return answer.status;
}

describe('the log format of wrs serve', () => {
  let dir: string;
  const development = (): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    NODE_ENV: 'development',
    WRS_DATA_DIR: dir,
    PORT: '0',
    WRS_PDF_WORKERS: '1',
  });
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'wrs-logs-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('on a terminal in development: one short human line per request, and the start screen stands out', {
    skip: !HAS_SCRIPT && 'util-linux script is not installed',
  }, async () => {
    const command = [process.execPath, ...CLI_NODE_ARGS, 'serve'].map(shellQuote).join(' ');
    const terminal: RunningProcess = startProcess('script', ['-qfec', command, '/dev/null'], { env: development() });
    try {
      const screen = await terminal.waitFor(parseStartScreen);
      assert.equal(await listEvents(screen), 200);
      const text = await terminal.waitFor((output) => {
        const plain = plainText(output);
        return /GET \/v1\/events\?limit=1 200 \d+ ms/.test(plain) ? plain : undefined;
      });
      const lines = text.split('\n');
      assert.deepEqual(
        lines.filter((line) => line.includes('/v1/events?limit=1 ')),
        [lines.find((line) => /^\[\d\d:\d\d:\d\d\] INFO: GET \/v1\/events\?limit=1 200 \d+ ms$/.test(line))],
        'one line for the request: time, level, method, URL, status, duration',
      );
      assert.ok(lines.some((line) => /^\[\d\d:\d\d:\d\d\] INFO: Server listening at http:\/\/127\.0\.0\.1:\d+$/.test(line)));
      assert.equal(lines.filter((line) => line.startsWith('{')).length, 0, 'no JSON lines');
      assert.doesNotMatch(text, /incoming request|"pid"|hostname/);
      for (const name of ['BASE', 'TOKEN', 'ADMIN_TOKEN']) assert.match(text, new RegExp(`^  export ${name}=\\S+$`, 'm'));
    } finally {
      await terminal.stop();
    }
  });

  it('piped: JSON lines, as production and tests have them', async () => {
    const server = startServe(development());
    try {
      const screen = await server.waitFor(parseStartScreen);
      assert.equal(await listEvents(screen), 200);
      await server.waitFor((output) => (output.includes('"request completed"') ? true : undefined));
      const logLines = server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'));
      const records = logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
      assert.ok(records.some((record) => String(record.msg).startsWith('Server listening at')));
      assert.ok(records.every((record) => typeof record.level === 'number' && typeof record.time === 'number'));
      assert.doesNotMatch(server.output(), /INFO:/, 'no pretty lines');
    } finally {
      await server.stop();
    }
  });

  it("the cluster primary's own lines follow the same format", () => {
    const written: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => written.push(chunk) > 0) as typeof process.stdout.write;
    try {
      createProcessLog('info', 'cluster-primary', 'pretty').info({ workers: 2 }, 'starting workers');
      createProcessLog('info', 'cluster-primary', 'json').info({ workers: 2 }, 'starting workers');
      createProcessLog('warn', 'cluster-primary', 'json').info({ workers: 2 }, 'below the level');
    } finally {
      process.stdout.write = write;
    }
    assert.equal(written.length, 2);
    assert.match(plainText(written[0]!), /^\[\d\d:\d\d:\d\d\] INFO \(cluster-primary\): starting workers \{"workers":2\}\n$/);
    assert.deepEqual((({ level, name, workers, msg }) => ({ level, name, workers, msg }))(JSON.parse(written[1]!) as Record<string, unknown>), {
      level: 30,
      name: 'cluster-primary',
      workers: 2,
      msg: 'starting workers',
    });
  });
});
