import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ROOT } from '../helpers/cli-process.js';
import { runHeapProbe } from '../helpers/heap-probe.js';

/**
 * A child process that keeps a live set and makes garbage that survives young collections (as
 * rows of a large page do while the next ones arrive), with the heap growth of `percent` (0:
 * V8's own); answers how many full collections it took.
 */
function fullCollections(percent: number): number {
  const script = `
    import { PerformanceObserver, constants } from 'node:perf_hooks';
    import { limitHeapGrowth } from ${JSON.stringify(`${ROOT}src/cli/serve/heap-growth.ts`)};
    limitHeapGrowth(${percent});
    let full = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (entry.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) full++;
    }).observe({ entryTypes: ['gc'] });
    const live = Array.from({ length: 200_000 }, (_, i) => ({ i, text: 'live ' + i }));
    const held = [];
    for (let round = 0; round < 1500; round++) {
      held.push(Array.from({ length: 5000 }, (_, i) => ({ round, i, text: 'row ' + round + ' ' + i })));
      if (held.length > 40) held.shift();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    console.log(JSON.stringify({ full, live: live.length }));
  `;
  return runHeapProbe<{ full: number }>(script).full;
}

describe('heap growth (WRS_HEAP_GROWTH_PERCENT)', () => {
  it("bounds the old generation's growth: many more, smaller full collections than V8 left to itself", () => {
    const ownHeuristics = fullCollections(0);
    const bounded = fullCollections(20);
    assert.ok(bounded > 2 * ownHeuristics, `full collections: ${bounded} with 20% growth, ${ownHeuristics} left to V8`);
  });
});
