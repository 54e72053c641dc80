import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { RenderTimeoutError, type PdfRenderer, type RenderRequest } from '../../src/domain/templates/pdf-renderer.port.js';
import { siblingModule } from '../../src/lib/module-thread.js';
import { createWorkerPoolRenderer } from '../../src/providers/pdf/worker-pool-renderer.js';
import { minimalTemplate } from './fixtures/templates.js';

const STALLING_WORKER = siblingModule(import.meta.url, 'fixtures/stalling-worker');

const request = (overrides: Partial<RenderRequest> = {}): RenderRequest => ({
  companyId: 'acme',
  template: minimalTemplate(),
  inputs: { title: 'Hello' },
  title: 'test',
  createdAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

/** This process's children (Linux: /proc/self/task/<tid>/children). */
function childPids(): number[] {
  return readdirSync('/proc/self/task').flatMap((tid) => readFileSync(`/proc/self/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
}

/** The nice value of each thread of a process (field 19 of /proc/<pid>/task/<tid>/stat). */
function threadNiceValues(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

describe('renders in child processes (WRS_PDF_ISOLATION=process)', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  const pools: PdfRenderer[] = [];
  const renderer = (options: Parameters<typeof createWorkerPoolRenderer>[0]) => {
    const pool = createWorkerPoolRenderer({ ...options, isolation: 'process' });
    pools.push(pool);
    return pool;
  };
  after(() => Promise.all(pools.map((pool) => pool.close())));

  it('renders the same bytes as a render thread does', async () => {
    const inThread = createWorkerPoolRenderer({ workers: 1, timeoutMs: 60_000 });
    pools.push(inThread);
    const [fromProcess, fromThread] = await Promise.all([renderer({ workers: 1, timeoutMs: 60_000 }).render(request()), inThread.render(request())]);
    assert.equal(fromProcess.pages, 1);
    assert.equal(fromProcess.sha256, fromThread.sha256);
  });

  it('runs every thread of the render process at the nice value, and the service keeps its own', async () => {
    const before = new Set(childPids());
    const serviceNice = threadNiceValues(process.pid)[0];
    const pool = renderer({ workers: 1, timeoutMs: 60_000, threadNice: 7 });
    await pool.render(request());
    const [child] = childPids().filter((pid) => !before.has(pid));
    assert.ok(child, 'a render process was started');
    const values = threadNiceValues(child);
    assert.ok(values.length > 1, `the render process has its helper threads: ${values.length}`);
    assert.deepEqual([...new Set(values)], [7], `the render process's threads: ${values.join(', ')}`);
    assert.equal(threadNiceValues(process.pid)[0], serviceNice);
    await pool.close();
    for (let waited = 0; existsSync(`/proc/${child}/task`) && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(existsSync(`/proc/${child}/task`), false, 'close() ended the render process');
  });

  it('ends a render past its timeout by killing its process, and the replacement renders the next one', async () => {
    const pool = renderer({ workers: 1, timeoutMs: 3000, workerFile: STALLING_WORKER });
    await assert.rejects(pool.render(request({ inputs: { title: 'hang' } })), RenderTimeoutError);
    assert.equal((await pool.render(request({ inputs: { title: 'fine' } }))).pages, 1);
  });
});
