import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import type { PdfRenderer } from '../../src/domain/templates/pdf-renderer.port.js';
import { createWorkerPoolRenderer } from '../../src/providers/pdf/worker-pool-renderer.js';
import { minimalTemplate } from './fixtures/templates.js';

/** The nice value of each of this process's threads (Linux: /proc/self/task/<tid>/stat, field 19). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

const render = (pool: PdfRenderer) =>
  pool.render({ companyId: 'acme', template: minimalTemplate(), inputs: { title: 'Hello' }, title: 'test', createdAt: '2026-01-01T00:00:00.000Z' });

describe('render threads run below the serving thread', { skip: process.platform !== 'linux' && 'nice values are per thread on Linux only' }, () => {
  const pools: PdfRenderer[] = [];
  after(() => Promise.all(pools.map((pool) => pool.close())));

  it('lowers each render thread to WRS_PDF_THREAD_NICE and leaves the serving thread as it was', async () => {
    const before = threadNiceValues();
    const pool = createWorkerPoolRenderer({ workers: 1, timeoutMs: 30_000, threadNice: 7 });
    pools.push(pool);
    await render(pool);
    const niceNow = threadNiceValues();
    assert.equal(niceNow.filter((nice) => nice === 7).length - before.filter((nice) => nice === 7).length, 1, `threads' nice values: ${niceNow.join(', ')}`);
    const mainThread = readFileSync('/proc/self/stat', 'utf8');
    assert.equal(Number(mainThread.slice(mainThread.lastIndexOf(')') + 2).split(' ')[16]), before[0], 'the serving thread keeps its priority');
  });

  it("leaves the render thread at the process's priority with 0", async () => {
    const before = threadNiceValues();
    const pool = createWorkerPoolRenderer({ workers: 1, timeoutMs: 30_000, threadNice: 0 });
    pools.push(pool);
    await render(pool);
    const niceNow = threadNiceValues();
    assert.deepEqual([...new Set(niceNow)], [...new Set(before)], `threads' nice values: ${niceNow.join(', ')}`);
  });
});
