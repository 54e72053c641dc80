import { getHeapSpaceStatistics } from 'node:v8';
import { performance } from 'node:perf_hooks';
import { garbageCollector } from '../../lib/garbage-collector.js';

export interface QuietCollectionOptions {
  /** How often the event loop's use is looked at. */
  readonly everyMs: number;
  /** Above this share of the last period the process was busy; below `quietUtilization`, quiet. */
  readonly busyUtilization: number;
  readonly quietUtilization: number;
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
 * collection gives the old generation back too, most after a burst. No collection is asked for while the process stays busy or stays idle.
 */
export function collectWhenQuiet(options: QuietCollectionOptions): void {
  const gc = garbageCollector();
  let busySinceLastCollection = true;
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    if (utilization > options.busyUtilization) busySinceLastCollection = true;
    if (utilization > options.quietUtilization) return;
    if (!busySinceLastCollection) return;
    gc({ type: 'minor' });
    if (newSpaceBytes() <= SETTLED_NEW_SPACE_BYTES) {
      gc({ type: 'major' });
      busySinceLastCollection = false;
    }
  }, options.everyMs);
  timer.unref();
}

function newSpaceBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}
