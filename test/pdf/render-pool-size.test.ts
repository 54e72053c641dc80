import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { describe, it } from 'node:test';
import { defaultRenderThreads, renderThreadCount } from '../../src/providers/pdf/render-pool-size.js';

const MB = 2 ** 20;
const inputs = (overrides: Partial<Parameters<typeof renderThreadCount>[0]> = {}) => ({
  cpus: 8,
  processes: 1,
  memoryBytes: 4096 * MB,
  threadBudgetBytes: 80 * MB,
  ...overrides,
});

describe('render thread count', () => {
  it("is the CPUs of the process but the serving thread's when memory holds that many threads", () => {
    assert.equal(renderThreadCount(inputs()), 7);
    assert.equal(renderThreadCount(inputs({ cpus: 2 })), 1);
  });

  it('shares the CPUs among the serving processes', () => {
    assert.equal(renderThreadCount(inputs({ processes: 4 })), 1);
    assert.equal(renderThreadCount(inputs({ processes: 2 })), 3);
    assert.equal(renderThreadCount(inputs({ cpus: 16, processes: 3 })), 4);
  });

  it('is what the memory budget holds when that is fewer than the CPUs', () => {
    assert.equal(renderThreadCount(inputs({ memoryBytes: 250 * MB })), 3);
    assert.equal(renderThreadCount(inputs({ memoryBytes: 640 * MB, processes: 2, cpus: 16 })), 4);
  });

  it('is at least one, whatever the CPUs and the memory', () => {
    assert.equal(renderThreadCount(inputs({ memoryBytes: 10 * MB })), 1);
    assert.equal(renderThreadCount(inputs({ cpus: 2, processes: 8 })), 1);
    assert.equal(renderThreadCount(inputs({ memoryBytes: 0, cpus: 1 })), 1);
  });

  it('gives this machine at least one thread and fewer than its CPUs (when it has more than one)', () => {
    const threads = defaultRenderThreads(1);
    assert.ok(threads >= 1 && threads <= Math.max(1, availableParallelism() - 1), String(threads));
  });
});
