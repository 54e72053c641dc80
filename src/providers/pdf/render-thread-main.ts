import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { garbageCollector } from '../../lib/garbage-collector.js';
import type { RenderRequestMessage, RenderModule, RenderThreadMessage } from './render-thread-protocol.js';

/**
 * The render thread's side: warms the render module up, says it is ready, then renders every
 * request as it comes. Renders are not queued behind each other: pdfme's generate awaits
 * between its steps, so the renders in flight on a thread interleave.
 */
export async function serveRenders(module: RenderModule): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('serveRenders runs in a worker thread');
  const send = (message: RenderThreadMessage): void => port.postMessage(message);
  await module.warmup?.();
  const collectIfGrown = heapBound();
  port.on('message', ({ id, task }: RenderRequestMessage) => {
    void (async () => {
      try {
        send({ type: 'outcome', id, outcome: await module.default(task) });
      } catch (error) {
        send({ type: 'outcome', id, outcome: { ok: false, reason: error instanceof Error ? error.message : String(error) } });
      } finally {
        collectIfGrown();
      }
    })();
  });
  send({ type: 'ready' });
}

/** Garbage a render thread may gather above what was live at its last collection. */
const HEAP_HEADROOM_BYTES = 24 * 2 ** 20;

/**
 * A render leaves about half a MB of garbage (and its PDF's bytes) behind. Left to itself, V8
 * lets a thread's heap reach two to three times the 35 MB pdfme keeps live before its first
 * full collection, so each thread would hold 150-200 MB of RSS in a burst. Collecting whenever
 * the heap has grown by the headroom over what was live keeps a thread near 100 MB, for one
 * full collection (tens of ms) every few dozen renders.
 */
function heapBound(): () => void {
  const gc = garbageCollector();
  let live = getHeapStatistics().used_heap_size;
  return () => {
    if (getHeapStatistics().used_heap_size < live + HEAP_HEADROOM_BYTES) return;
    gc({ type: 'major' });
    live = getHeapStatistics().used_heap_size;
  };
}
