import { setFlagsFromString } from 'node:v8';

/**
 * Left to itself, V8 lets the old generation grow to between 1.1 and 4 times what was live at
 * the last full collection before it collects again, the more the cheaper collections have been.
 * The service's live heap is small and its collections cheap, so under a steady
 * stream of short-lived garbage that survives a young collection (rows of large PostgreSQL
 * pages arriving between reads, an ingest's batches) V8 picks the top of that range: RSS climbs
 * by several times the live heap in garbage before a full collection gives it back. A fixed, small growth
 * makes full collections more frequent, each as cheap as the live heap is small.
 *
 * V8 reads the flag at each collection, so setting it once the process runs takes effect at
 * the next one, for this thread and the render threads alike.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
