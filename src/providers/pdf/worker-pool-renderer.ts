import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import {
  RenderRejectedError,
  RendererUnavailableError,
  RenderTimeoutError,
  type PdfRenderer,
  type RenderedPdf,
  type RenderRequest,
} from '../../domain/templates/pdf-renderer.port.js';
import { createFairSemaphore, SlotRefusedError } from '../../lib/fair-semaphore.js';
import type { RenderOutcome, RenderTask } from './render-task.js';

export interface WorkerPoolRendererOptions {
  /** Worker threads; defaults to the CPU count. */
  workers?: number | undefined;
  /** Per render, from the moment it has a thread; a render past it is aborted and its thread replaced. */
  timeoutMs: number;
  /** Longest wait for a thread; past it the render is refused as unavailable. Default: timeoutMs. */
  queueTimeoutMs?: number | undefined;
  /**
   * Renders that may wait for a thread, all companies together; more are refused as unavailable
   * (a company with fewer waiting than the busiest takes the busiest's newest place). Default 32 per thread.
   */
  maxQueue?: number;
  /** How long the threads may take to start (load pdfme) before renders fail as unavailable. */
  startupTimeoutMs?: number;
  /** The worker module (a file URL); exports `default(task)` and `warmup()`. */
  workerFile?: string;
  /** Errors of the pool that belong to no render (a thread that died while idle, ...). */
  onPoolError?: (error: unknown) => void;
  /**
   * The threads are stopped after this long without a render, giving back their memory (each
   * holds pdfme and its fonts in its own V8 heap, about 75 MB); the next render starts them
   * again. Default 60 s; 0 keeps them for the life of the process.
   */
  idleShutdownMs?: number;
}

// Under tsx (tests, `npm run dev`) this module is TypeScript and so is its worker; in dist/ both are .js.
const WORKER_FILE = new URL(`./render-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href;

/**
 * Renders in a piscina pool of worker threads so that the event loop keeps serving requests
 * while PDFs render. The pool starts on the first render (a process that never renders never
 * pays for the threads), and every thread loads pdfme before the first render's clock starts.
 * Threads are shared between companies round-robin: a render waits for a thread in its
 * company's queue (never in piscina's), so its timeout counts the render alone and one
 * company's renders never hold back another's for longer than one render per thread.
 */
export function createWorkerPoolRenderer(options: WorkerPoolRendererOptions): PdfRenderer & { threadsRunning(): number } {
  const workers = options.workers ?? availableParallelism();
  const queueTimeoutMs = options.queueTimeoutMs ?? options.timeoutMs;
  const startupTimeoutMs = options.startupTimeoutMs ?? 60_000;
  const threads = createFairSemaphore({ slots: workers, maxWaiting: options.maxQueue ?? workers * 32 });
  let inFlight = 0;
  let pool: Piscina<RenderTask, RenderOutcome> | undefined;
  let ready: Promise<void> | undefined;
  let closed = false;
  let idleTimer: NodeJS.Timeout | undefined;
  const idleShutdownMs = options.idleShutdownMs ?? 60_000;

  const stopWhenIdle = (): void => {
    if (idleShutdownMs <= 0 || inFlight > 0 || !pool) return;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      if (inFlight > 0 || !pool) return;
      const idle = pool;
      pool = undefined;
      ready = undefined;
      void idle.destroy();
    }, idleShutdownMs);
    idleTimer.unref();
  };

  const start = (): Promise<void> => {
    if (closed) return Promise.reject(new RendererUnavailableError('the PDF renderer is shutting down'));
    if (ready) return ready;
    const created = new Piscina<RenderTask, RenderOutcome>({
      filename: options.workerFile ?? WORKER_FILE,
      minThreads: workers,
      maxThreads: workers,
    });
    // Without a listener an 'error' event would take the whole process down.
    created.on('error', (error: unknown) => options.onPoolError?.(error));
    pool = created;
    const signal = AbortSignal.timeout(startupTimeoutMs);
    const warmups = Array.from({ length: workers }, () =>
      created.run(undefined as unknown as RenderTask, { name: 'warmup', signal }),
    );
    ready = Promise.all(warmups).then(
      () => undefined,
      (error: unknown) => {
        // A failed start is not cached: the next render tries a fresh pool.
        if (pool === created) {
          pool = undefined;
          ready = undefined;
        }
        void created.destroy();
        throw new RendererUnavailableError('the PDF renderer could not start', { cause: error });
      },
    );
    return ready;
  };

  return {
    workers,

    threadsRunning: () => pool?.threads.length ?? 0,

    async render(request) {
      inFlight += 1;
      clearTimeout(idleTimer);
      try {
        return await renderInPool(request);
      } finally {
        inFlight -= 1;
        stopWhenIdle();
      }
    },

    async close() {
      closed = true;
      clearTimeout(idleTimer);
      const running = pool;
      pool = undefined;
      ready = undefined;
      await running?.destroy();
    },
  };

  async function renderInPool(request: RenderRequest): Promise<RenderedPdf> {
    await start();
    let release: (() => void) | undefined = await waitForThread(request.companyId);
    try {
      return await renderOnThread(request);
    } catch (error) {
      if (error instanceof RenderTimeoutError) {
        releaseWhenReplaced(release);
        release = undefined;
      }
      throw error;
    } finally {
      release?.();
    }
  }

  /**
   * A render past its timeout has its thread terminated and replaced; the thread is handed on
   * only once the replacement has loaded pdfme, so that the next render's clock does not run
   * while it starts.
   */
  function releaseWhenReplaced(release: () => void): void {
    const running = pool;
    if (!running) return release();
    // piscina announces a replacement thread once it has loaded the worker module.
    const handOn = (): void => {
      clearTimeout(fallback);
      running.off('workerCreate', handOn);
      release();
    };
    const fallback = setTimeout(handOn, startupTimeoutMs);
    fallback.unref();
    running.once('workerCreate', handOn);
  }

  async function waitForThread(companyId: string): Promise<() => void> {
    try {
      const permit = await threads.acquire(companyId, { timeoutMs: queueTimeoutMs });
      return () => permit.release();
    } catch (error) {
      if (error instanceof SlotRefusedError && error.reason === 'wait_timeout') {
        throw new RendererUnavailableError(`no PDF render thread was free within ${queueTimeoutMs} ms; retry shortly`);
      }
      throw new RendererUnavailableError('too many PDF renders are waiting; retry shortly', { cause: error });
    }
  }

  async function renderOnThread(request: RenderRequest): Promise<RenderedPdf> {
    const running = pool;
    if (!running || closed) throw new RendererUnavailableError('the PDF renderer is shutting down');
    const started = performance.now();
    const task: RenderTask = {
      template: request.template,
      inputs: request.inputs,
      title: request.title,
      createdAt: request.createdAt,
    };
    let outcome: RenderOutcome;
    try {
      outcome = await running.run(task, { signal: AbortSignal.timeout(options.timeoutMs) });
    } catch (error) {
      if ((error as Error | undefined)?.name === 'AbortError') throw new RenderTimeoutError(options.timeoutMs);
      throw new RendererUnavailableError('the PDF renderer failed', { cause: error });
    }
    if (!outcome.ok) throw new RenderRejectedError(outcome.reason);
    return {
      bytes: outcome.pdf,
      pages: outcome.pages,
      sha256: outcome.sha256,
      renderMs: performance.now() - started,
    };
  }
}

/**
 * Threads for one process: the CPUs shared out among the processes serving the port
 * (WRS_WORKERS), at least one.
 */
export function defaultRenderWorkers(processes: number): number {
  return Math.max(1, Math.floor(availableParallelism() / Math.max(1, processes)));
}
