import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { HEAP_HEADROOM_BYTES, heapKeeper } from '../../src/providers/pdf/render-thread-heap.js';

const MB = 2 ** 20;

describe('render thread heap keeper', () => {
  let used: number;
  let collections: number;
  const keeper = () =>
    heapKeeper({
      collect: () => {
        collections++;
        used = 40 * MB;
      },
      heapUsed: () => used,
      idleDelayMs: 1_000,
    });

  beforeEach(() => {
    used = 40 * MB;
    collections = 0;
    mock.timers.enable({ apis: ['setTimeout'] });
  });
  afterEach(() => mock.timers.reset());

  it('collects at once when a render leaves the heap grown by the headroom', () => {
    const heap = keeper();
    heap.renderStarted();
    heap.renderStarted();
    used += HEAP_HEADROOM_BYTES;
    heap.renderFinished();
    assert.equal(collections, 1);
  });

  it('collects once the thread has been idle for the delay, not before', () => {
    const heap = keeper();
    heap.renderStarted();
    used += 5 * MB;
    heap.renderFinished();
    mock.timers.tick(999);
    assert.equal(collections, 0);
    mock.timers.tick(1);
    assert.equal(collections, 1);
    mock.timers.tick(10_000);
    assert.equal(collections, 1, 'one collection an idle spell');
  });

  it('does not collect while a render is in flight, nor when nothing grew', () => {
    const heap = keeper();
    heap.renderStarted();
    heap.renderStarted();
    used += 5 * MB;
    heap.renderFinished();
    mock.timers.tick(5_000);
    assert.equal(collections, 0, 'a render is still in flight');
    heap.renderFinished();
    heap.renderStarted();
    mock.timers.tick(5_000);
    assert.equal(collections, 0, 'a new render started within the delay');
    heap.renderFinished();
    mock.timers.tick(1_000);
    assert.equal(collections, 1);
    heap.renderStarted();
    heap.renderFinished();
    mock.timers.tick(1_000);
    assert.equal(collections, 1, 'nothing grew since the last collection');
  });
});
