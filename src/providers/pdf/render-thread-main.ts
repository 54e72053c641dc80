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
        const preparing = module.prepare?.(task);
        if (preparing) {
          send({ type: 'preparing', id });
          try {
            await preparing;
          } finally {
            send({ type: 'prepared', id });
          }
        }
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
const HEAP_HEADROOM_BYTES = 32 * 2 ** 20;

/**
 * Left to itself, V8 lets a thread's old generation reach about twice what pdfme keeps live
 * (30-35 MB) between its full collections, and keeps those pages. Collecting whenever the heap
 * has grown by the headroom over what was live bounds it. Measured with four renders at a time
 * for 10 s, the process 43 MB before the first (the profiles' fifth pass): a thread peaked at
 * about 137-140 MB with V8's own collections (12-14 ms of CPU a PDF), 98-101 MB with this
 * headroom (17-21 ms), 86-89 MB with 24 MB (21 ms), 120 MB with 48 MB (17 ms).
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
