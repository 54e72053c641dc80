import { getHeapSpaceStatistics } from 'node:v8';
import { performance } from 'node:perf_hooks';
import { garbageCollector } from '../../lib/garbage-collector.js';
import type { TrimFreedMemory } from '../../lib/malloc-trim.js';

export interface QuietCollectionOptions {
  /** How often the event loop's use is looked at. */
  readonly everyMs: number;
  /** Above this share of the last period the process was busy; below `quietUtilization`, quiet. */
  readonly busyUtilization: number;
  readonly quietUtilization: number;
  /**
   * Gives glibc's free memory back to the system (lib/malloc-trim.ts): after each period the
   * event loop worked in, and after the collections of a quiet one. Undefined: V8's heap alone.
   */
  readonly trimFreedMemory?: TrimFreedMemory | undefined;
}

/** A young generation no larger than this has been given back. */
const SETTLED_NEW_SPACE_BYTES = 4 * 2 ** 20;

/**
 * Starting the service, or a burst of work (a data load, large pages), grows V8's young
 * generation to its 32 MB maximum and the old generation well past what stays live, and V8
 * keeps that size while the process idles: it shrinks the young generation only at a
 * collection that sees a low allocation rate (over its last few seconds), and an idle process
 * allocates too little to ever trigger one. So once the process is quiet after being busy, a
 * cheap young collection is asked for at each quiet period until one shrinks it, then one full
 * collection gives the old generation back too: about 30 MB of RSS after the start, more after
 * a burst. No collection is asked for while the process stays busy or stays idle.
 *
 * What glibc holds free outside V8's heap is given back at each period the process worked in,
 * since that does not wait for a quiet moment to grow, and after each collection of a quiet
 * period: a walk of the allocator's free chunks, 0.6 ms on average through the benchmark.
 */
export function collectWhenQuiet(options: QuietCollectionOptions): void {
  const gc = garbageCollector();
  const trim = options.trimFreedMemory ?? (() => false);
  let busySinceLastCollection = true;
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    if (utilization > options.busyUtilization) busySinceLastCollection = true;
    if (utilization > options.quietUtilization) {
      trim();
      return;
    }
    if (!busySinceLastCollection) return;
    gc({ type: 'minor' });
    if (newSpaceBytes() <= SETTLED_NEW_SPACE_BYTES) {
      gc({ type: 'major' });
      busySinceLastCollection = false;
    }
    trim();
  }, options.everyMs);
  timer.unref();
}

function newSpaceBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}
