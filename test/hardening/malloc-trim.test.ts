import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config/config.js';
import { loadMallocTrim } from '../../src/lib/malloc-trim.js';
import { ROOT } from '../helpers/cli-process.js';
import { TEST_ADMIN_TOKEN } from '../helpers/test-app.js';
import { httpRequest } from './helpers/http.js';
import { sleep, startServer, type ServerProcess } from './helpers/server-process.js';
import { parseExposition } from '../metrics/exposition.js';
import { runHeapProbe } from '../helpers/heap-probe.js';

interface Freed {
  /** RSS in MB before the buffers, once they are freed but one in ten kept, and after giving back. */
  start: number;
  freed: number;
  given: number;
}

/**
 * A child process allocates 3,000 buffers of 64 KB (Node's allocator outside V8's heap, below
 * glibc's threshold for a mapping of their own), keeps one in ten and frees the rest, then
 * gives back (or not) what glibc holds free between the kept ones.
 */
function freedBuffers(giveBack: boolean): Freed {
  const script = `
    import { setTimeout as sleep } from 'node:timers/promises';
    import { garbageCollector } from ${JSON.stringify(`${ROOT}src/lib/garbage-collector.ts`)};
    import { loadMallocTrim } from ${JSON.stringify(`${ROOT}src/lib/malloc-trim.ts`)};
    const gc = garbageCollector();
    const trim = loadMallocTrim();
    const rss = () => process.memoryUsage.rss() / 2 ** 20;
    const start = rss();
    let buffers = Array.from({ length: 3000 }, (_, i) => Buffer.alloc(65536, i));
    const kept = buffers.filter((_, i) => i % 10 === 0);
    buffers = null;
    // Array buffers are released by a sweeper thread after the collection.
    gc();
    await sleep(200);
    gc();
    const freed = rss();
    if (${giveBack}) trim();
    const given = rss();
    console.log(JSON.stringify({ start, freed, given, kept: kept.length }));
  `;
  return runHeapProbe<Freed>(script);
}

describe("glibc's free memory given back (WRS_MALLOC_TRIM)", () => {
  it('is on unless turned off', () => {
    assert.equal(loadConfig({}).server.mallocTrim, true);
    assert.equal(loadConfig({ WRS_MALLOC_TRIM: 'false' }).server.mallocTrim, false);
  });

  it('returns the free memory between buffers still in use to the system', (t) => {
    if (!loadMallocTrim()) return t.skip('not on glibc: nothing to call');
    const kept = freedBuffers(false);
    const given = freedBuffers(true);
    // 3,000 x 64 KB is 188 MB, 169 MB of it freed.
    assert.ok(kept.given - kept.start > 120, `without giving back, the freed buffers stay in the RSS: ${JSON.stringify(kept)}`);
    assert.ok(given.freed - given.given > 120, `giving back returns most of the freed buffers: ${JSON.stringify(given)}`);
  });
});

describe("glibc's free memory given back by a serving process (a real process)", () => {
  let server: ServerProcess;
  before(async () => {
    server = await startServer();
    await server.waitForLogs((line) => String(line.msg).startsWith('Server listening'), 1, 'the server to listen');
  });
  after(() => server.dispose());

  it('gives it back once the start has settled, and counts it in the metrics', async (t) => {
    if (!loadMallocTrim()) return t.skip('not on glibc: nothing to call');
    const trims = async () => {
      const response = await httpRequest(server.port, 'GET', '/metrics', { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      assert.equal(response.status, 200, response.body);
      const exposition = parseExposition(response.body);
      return exposition.find('wrs_malloc_trims_total').reduce((sum, sample) => sum + sample.value, 0);
    };
    // The quiet collection after the start runs within two periods of 2 s, then gives back.
    const deadline = Date.now() + 15_000;
    while ((await trims()) === 0 && Date.now() < deadline) await sleep(250);
    assert.ok((await trims()) > 0, 'no trim counted within 15 s of the start');
  });
});
