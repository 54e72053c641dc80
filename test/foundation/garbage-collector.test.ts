import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getHeapStatistics } from 'node:v8';
import { garbageCollector } from '../../src/lib/garbage-collector.js';

const MB = 2 ** 20;

/** About 60 MB of objects, kept until `release` is called; a full collection promotes them to the old generation. */
function oldGarbage(gc: ReturnType<typeof garbageCollector>): { release(): void } {
  let kept: { index: number; text: string }[] | null = Array.from({ length: 600_000 }, (_, index) => ({ index, text: `value ${index}` }));
  gc();
  assert.ok(kept.length > 0);
  return { release: () => (kept = null) };
}

describe('garbageCollector', () => {
  it('collects the old generation when asked for a major collection, on every Node version', () => {
    const gc = garbageCollector();
    const garbage = oldGarbage(gc);
    const held = getHeapStatistics().used_heap_size;
    garbage.release();
    gc({ type: 'major' });
    const after = getHeapStatistics().used_heap_size;
    assert.ok(held - after > 30 * MB, `a major collection gave back ${((held - after) / MB).toFixed(1)} MB of ${(held / MB).toFixed(1)} MB`);
  });

  it('collects the young generation alone when asked for a minor one', () => {
    const gc = garbageCollector();
    const garbage = oldGarbage(gc);
    garbage.release();
    gc({ type: 'minor' });
    const afterMinor = getHeapStatistics().used_heap_size;
    gc({ type: 'major' });
    assert.ok(afterMinor - getHeapStatistics().used_heap_size > 30 * MB, 'the old garbage outlives a minor collection');
  });
});
