import { Counter, type Registry } from 'prom-client';
import type { TrimFreedMemory } from '../../lib/malloc-trim.js';

/** Counts each time glibc's free memory is given back, and the event loop's time it took. */
export type MeasureTrims = (trim: TrimFreedMemory) => TrimFreedMemory;

export function createMallocTrimMetrics(registry: Registry): MeasureTrims {
  const trims = new Counter({
    name: 'wrs_malloc_trims_total',
    help: "Times glibc's free memory was given back to the system (WRS_MALLOC_TRIM), by whether any was.",
    labelNames: ['released'] as const,
    registers: [registry],
  });
  const seconds = new Counter({
    name: 'wrs_malloc_trim_seconds_total',
    help: "Time the event loop spent giving glibc's free memory back to the system.",
    registers: [registry],
  });
  return (trim) => () => {
    const started = performance.now();
    const released = trim();
    seconds.inc((performance.now() - started) / 1000);
    trims.inc({ released: String(released) });
    return released;
  };
}
