import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { RenderRequestMessage, RenderModule, RenderThreadMessage } from './render-thread-protocol.js';

/**
 * The render thread's side: warms the render module up, says it is ready, then renders every
 * request as it comes. Renders are not queued behind each other: pdfme's generate awaits
 * between its steps, so the renders in flight on a thread interleave.
 */
export async function serveRenders(module: RenderModule, port: RenderPort = threadPort()): Promise<void> {
  const { send } = port;
  await module.warmup?.();
  port.warmedUp();
  port.onRequest(({ id, task }) => {
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
      }
    })();
  });
  send({ type: 'ready' });
}

/** How a render thread or process hears the service and answers it. */
export interface RenderPort {
  /** Loading ran at the service's priority (a starved start would only hold renders back); renders do not. */
  warmedUp(): void;
  send(message: RenderThreadMessage): void;
  onRequest(listener: (request: RenderRequestMessage) => void): void;
}

/** A worker thread's port: the thread lowers its own priority alone. */
function threadPort(): RenderPort {
  const port = parentPort;
  if (!port) throw new Error('serveRenders runs in a worker thread or is given a port');
  return {
    warmedUp: () => lowerPriority((workerData as { nice?: number }).nice ?? 0),
    send: (message) => port.postMessage(message),
    onRequest: (listener) => port.on('message', listener),
  };
}

/**
 * On Linux a nice value belongs to a thread, and setpriority of "process 0" sets the calling
 * thread's: the serving thread keeps its priority. Elsewhere it would lower the whole process,
 * so it is left alone there; a refusal (a container without the right) changes nothing.
 */
function lowerPriority(nice: number): void {
  if (nice === 0 || process.platform !== 'linux') return;
  try {
    setPriority(nice);
  } catch {
    // Renders run at the process's priority.
  }
}
