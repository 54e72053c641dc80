import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RenderRequest } from '../../src/domain/templates/pdf-renderer.port.js';
import { siblingModule } from '../../src/lib/module-thread.js';
import { createWorkerPoolRenderer } from '../../src/providers/pdf/worker-pool-renderer.js';
import { minimalTemplate } from './fixtures/templates.js';

const LATER_THREADS_SLOW_START = siblingModule(import.meta.url, 'fixtures/later-threads-slow-start-worker');
const LATER_THREAD_START_MS = 3000;

const request = (companyId: string, title: string): RenderRequest => ({
  companyId,
  template: minimalTemplate(),
  inputs: { title },
  title: 'test',
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe("worker-pool PDF renderer: a company's render waits only for renders already running", () => {
  let folder: string;
  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'wrs-render-places-'));
    process.env.WRS_TEST_FIRST_THREAD_MARK = join(folder, 'first-thread');
  });
  after(() => {
    delete process.env.WRS_TEST_FIRST_THREAD_MARK;
    rmSync(folder, { recursive: true, force: true });
  });

  it('gives another company the first place that frees on a running thread, not a place on a thread started for the flood', async () => {
    // Two threads of two places. The first thread is warm; the flood fills it and starts the
    // second, which takes 3 s to load. The other company's render must take the first place
    // the running thread frees (one 400 ms render), ahead of the flood's renders that were
    // already waiting for the second thread.
    const pool = createWorkerPoolRenderer({
      workers: 2,
      rendersPerThread: 2,
      timeoutMs: 10_000,
      queueTimeoutMs: 30_000,
      idleShutdownMs: 0,
      workerFile: LATER_THREADS_SLOW_START,
    });
    try {
      await pool.render(request('warm-up', 'quick'));
      const finished: string[] = [];
      const track = (label: string, companyId: string, title: string) => pool.render(request(companyId, title)).then(() => finished.push(label));
      const flood = [1, 2, 3, 4].map((n) => track(`flood ${n}`, 'flood', 'slow:400'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      const asked = performance.now();
      await track('other', 'other', 'quick');
      const waitedMs = performance.now() - asked;
      await Promise.all(flood);

      // flood 1 and 2 ran on the first thread; flood 3 waited for a place, flood 4 for a permit.
      assert.ok(finished.indexOf('other') < finished.indexOf('flood 3'), finished.join(', '));
      assert.ok(finished.indexOf('other') < finished.indexOf('flood 4'), finished.join(', '));
      // Bounded by the renders running when it came (400 ms each), not by the second thread's start.
      assert.ok(waitedMs < LATER_THREAD_START_MS - 500, `the other company's render took ${waitedMs.toFixed(0)} ms`);
    } finally {
      await pool.close();
    }
  });

  it('stops a thread started for renders that found places elsewhere once it has idled', async () => {
    const pool = createWorkerPoolRenderer({
      workers: 2,
      rendersPerThread: 1,
      timeoutMs: 10_000,
      queueTimeoutMs: 30_000,
      idleShutdownMs: 200,
      workerFile: LATER_THREADS_SLOW_START,
    });
    try {
      // The first thread exists (the mark is taken), so both threads now take 3 s to load.
      await pool.render(request('warm-up', 'quick'));
      await Promise.all([pool.render(request('a', 'slow:100')), pool.render(request('a', 'slow:100'))]);
      const since = Date.now();
      while (pool.threadsRunning() > 0) {
        assert.ok(Date.now() - since < 15_000, `${pool.threadsRunning()} threads still running`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await pool.close();
    }
  });
});
