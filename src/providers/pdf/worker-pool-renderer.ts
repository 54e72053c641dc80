import type { ResourceLimits } from 'node:worker_threads';
import {
  RenderRejectedError,
  RendererUnavailableError,
  RenderTimeoutError,
  TOO_MANY_WAITING,
  type PdfRenderer,
  type RenderedPdf,
  type RenderRequest,
} from '../../domain/templates/pdf-renderer.port.js';
import type { RenderObserver, RenderOutcome } from '../../domain/templates/render-observer.port.js';
import { createFairSemaphore, SlotRefusedError } from '../../lib/fair-semaphore.js';
import type { RenderOutcome as ThreadOutcome, RenderTask } from './render-task.js';
import type { RenderIsolation } from './render-host.js';
import { RenderThreadLostError, startRenderThread, type RenderThread } from './render-thread.js';

export interface WorkerPoolRendererOptions {
  /** Render threads at most. */
  workers: number;
  /** Renders one thread runs at once, interleaved. Default 1. */
  rendersPerThread?: number;
  /**
   * How much lower the render threads' scheduling priority is than the serving thread's (a Linux
   * nice value, per thread). Renders are throughput work: when the CPUs are contended, every
   * company's requests on the serving thread go first. Default 0.
   */
  threadNice?: number;
  /** Worker threads (the default) or child processes (render-host.ts says why). */
  isolation?: RenderIsolation;
  /**
   * Per render, its share of its thread from the moment the thread is ready (while n renders
   * share a thread, each one's clock runs at 1/n); a render past it is aborted and its thread
   * replaced.
   */
  timeoutMs: number;
  /** Longest wait for a place on a thread; past it the render is refused as unavailable. Default: timeoutMs. */
  queueTimeoutMs?: number | undefined;
  /**
   * Renders that may wait for a place, all companies together; more are refused as unavailable
   * (a company with fewer waiting than the busiest takes the busiest's newest place). Default 32 per thread.
   */
  maxQueue?: number;
  /** How long a thread may take to start (load pdfme) before its renders fail as unavailable. */
  startupTimeoutMs?: number;
  /** The render module (a file URL); exports `default(task)` and `warmup()`. */
  workerFile?: string;
  /** Errors that belong to no render (a thread that died while idle, ...). */
  onPoolError?: (error: unknown) => void;
  /**
   * A thread stops after this long without a render, giving back its memory (pdfme and its font
   * in its own V8 heap); the next render starts one again. Default 60 s; 0 keeps threads for the
   * life of the process.
   */
  idleShutdownMs?: number;
  /**
   * V8 heap limits of each thread. Default: a young generation of 8 MB (V8's own 32 MB is RSS a
   * burst keeps; the smaller one lowered the peak with no measurable CPU cost).
   */
  resourceLimits?: ResourceLimits;
  /** Told how long each render waited and ran, and how it ended. */
  observer?: RenderObserver;
}

interface PlaceWaiter {
  readonly companyId: string;
  /** Starts the render on the thread at once, so that the place is counted as taken. */
  take(thread: RenderThread): void;
  fail(error: unknown): void;
}

const NOT_OBSERVED: RenderObserver = { renderFinished: () => undefined };

const DEFAULT_THREAD_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 8 };

// Under tsx (tests, `npm run dev`) this module is TypeScript and so is its worker; in dist/ both are .js.
const WORKER_FILE = new URL(`./render-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href;

/**
 * Renders in worker threads so that the event loop keeps serving requests while PDFs render.
 * No thread runs before the first render; each thread interleaves up to `rendersPerThread`
 * renders, a render goes to the least busy ready thread with room, and a new thread starts only
 * when every running one is full (up to `workers`): a thread costs tens of MB, so one busy thread
 * is preferred to two half-busy ones. Places on the threads are shared between companies
 * round-robin, and no company holds them all: a render waits in its company's queue, so its
 * timeout counts the render alone and another company's render always finds a place soon.
 * A render is handed to a thread only once the thread has loaded pdfme, and the render whose
 * company has the fewest renders on the threads takes the next place that frees or starts: a
 * render never waits for a thread started for another company's renders while a place on a
 * running thread frees first.
 */
export function createWorkerPoolRenderer(options: WorkerPoolRendererOptions): PdfRenderer & { threadsRunning(): number } {
  const { workers } = options;
  const rendersPerThread = options.rendersPerThread ?? 1;
  const queueTimeoutMs = options.queueTimeoutMs ?? options.timeoutMs;
  const idleShutdownMs = options.idleShutdownMs ?? 60_000;
  const observer = options.observer ?? NOT_OBSERVED;
  const slots = workers * rendersPerThread;
  // One place is always kept for the other companies: a company's renders interleave with
  // whatever shares their thread, so a company holding every place would finish all of them
  // before another company's render even starts.
  const places = createFairSemaphore({ slots, slotsPerKey: Math.max(1, slots - 1), maxWaiting: options.maxQueue ?? workers * 32 });
  const threads = new Set<RenderThread>();
  const idleTimers = new Map<RenderThread, NodeJS.Timeout>();
  let closed = false;

  const forget = (thread: RenderThread): void => {
    clearTimeout(idleTimers.get(thread));
    idleTimers.delete(thread);
    threads.delete(thread);
  };

  const stopWhenIdle = (thread: RenderThread): void => {
    if (idleShutdownMs <= 0) return;
    clearTimeout(idleTimers.get(thread));
    const timer = setTimeout(() => {
      if (thread.inFlight > 0) return;
      forget(thread);
      void thread.stop();
    }, idleShutdownMs);
    timer.unref();
    idleTimers.set(thread, timer);
  };

  const startThread = (): RenderThread => {
    const thread: RenderThread = startRenderThread({
      renderModule: options.workerFile ?? WORKER_FILE,
      startupTimeoutMs: options.startupTimeoutMs ?? 60_000,
      nice: options.threadNice ?? 0,
      isolation: options.isolation ?? 'thread',
      resourceLimits: options.resourceLimits ?? DEFAULT_THREAD_LIMITS,
      onExit: forget,
      onIdle: stopWhenIdle,
      onError: (error) => options.onPoolError?.(error),
    });
    threads.add(thread);
    thread.started.then(
      () => {
        fillPlaces(true);
        // Started for renders that found places elsewhere first: it idles out like any other.
        if (thread.inFlight === 0) stopWhenIdle(thread);
      },
      (error: unknown) => failedToStart(thread, error),
    );
    return thread;
  };

  /** Renders waiting for a place on a ready thread, in the order they came. */
  const placeWaiters: PlaceWaiter[] = [];
  /** Renders of each company on the threads. */
  const onThreads = new Map<string, number>();
  const rendersOnThreads = (companyId: string): number => onThreads.get(companyId) ?? 0;

  /** The least busy ready thread with room. */
  const freePlace = (): RenderThread | undefined => {
    let best: RenderThread | undefined;
    for (const thread of threads) {
      if (thread.ready && !thread.retiring && thread.inFlight < rendersPerThread && (!best || thread.inFlight < best.inFlight)) best = thread;
    }
    return best;
  };

  const placesStarting = (): number => {
    let starting = 0;
    for (const thread of threads) if (!thread.ready && !thread.retiring) starting += 1;
    return starting * rendersPerThread;
  };

  /** Hands free places to the waiting renders, fewest renders on the threads first; starts threads for the rest unless told not to. */
  const fillPlaces = (startThreads = true): void => {
    for (let thread = freePlace(); thread && placeWaiters.length > 0; thread = freePlace()) {
      let next = 0;
      for (let index = 1; index < placeWaiters.length; index++) {
        if (rendersOnThreads(placeWaiters[index]!.companyId) < rendersOnThreads(placeWaiters[next]!.companyId)) next = index;
      }
      const [waiter] = placeWaiters.splice(next, 1);
      clearTimeout(idleTimers.get(thread));
      waiter!.take(thread);
    }
    while (startThreads && placeWaiters.length > placesStarting() && threads.size < workers && !closed) startThread();
  };

  const failedToStart = (thread: RenderThread, error: unknown): void => {
    forget(thread);
    // With other threads, the waiting renders take their places; a thread that could not start
    // is not started again for them at once (the next render tries).
    if ([...threads].some((other) => !other.retiring)) {
      fillPlaces(false);
      return;
    }
    for (const waiter of placeWaiters.splice(0)) waiter.fail(new RendererUnavailableError('the PDF renderer could not start', { cause: error }));
  };

  /** Runs the render on the first place it is given on a ready thread. */
  const renderOnPlace = (companyId: string, task: RenderTask): Promise<ThreadOutcome> =>
    new Promise((resolve, reject) => {
      const take = (thread: RenderThread): void => {
        onThreads.set(companyId, rendersOnThreads(companyId) + 1);
        thread
          .render(task, options.timeoutMs)
          .finally(() => {
            const left = rendersOnThreads(companyId) - 1;
            if (left > 0) onThreads.set(companyId, left);
            else onThreads.delete(companyId);
            fillPlaces(true);
          })
          .then(resolve, reject);
      };
      placeWaiters.push({ companyId, take, fail: reject });
      fillPlaces(true);
    });

  return {
    workers,

    threadsRunning: () => threads.size,

    admits: (companyId) => !closed && places.admits(companyId),

    usage() {
      const { held, waiting } = places.usage();
      return { rendering: held, waiting, threads: threads.size };
    },

    async render(request) {
      if (closed) throw new RendererUnavailableError('the PDF renderer is shutting down');
      const queued = performance.now();
      let permit;
      try {
        permit = await waitForPlace(request.companyId);
      } catch (error) {
        observer.renderFinished({ outcome: 'unavailable', waitSeconds: (performance.now() - queued) / 1000, renderSeconds: null });
        throw error;
      }
      const placed = performance.now();
      let outcome: RenderOutcome = 'rendered';
      try {
        return await renderOnThread(request);
      } catch (error) {
        outcome = outcomeOf(error);
        throw error;
      } finally {
        permit.release();
        const ended = performance.now();
        observer.renderFinished({ outcome, waitSeconds: (placed - queued) / 1000, renderSeconds: (ended - placed) / 1000 });
      }
    },

    async close() {
      closed = true;
      for (const waiter of placeWaiters.splice(0)) waiter.fail(new RendererUnavailableError('the PDF renderer is shutting down'));
      const running = [...threads];
      for (const thread of running) forget(thread);
      await Promise.all(running.map((thread) => thread.stop()));
    },
  };

  async function waitForPlace(companyId: string) {
    try {
      return await places.acquire(companyId, { timeoutMs: queueTimeoutMs });
    } catch (error) {
      if (error instanceof SlotRefusedError && error.reason === 'wait_timeout') {
        throw new RendererUnavailableError(`no PDF render thread was free within ${queueTimeoutMs} ms; retry shortly`);
      }
      throw new RendererUnavailableError(TOO_MANY_WAITING, { cause: error });
    }
  }

  /** A render that lost its thread to a neighbour's timeout did nothing wrong: it runs once more, on another thread. */
  async function renderOnThread(request: RenderRequest): Promise<RenderedPdf> {
    const task: RenderTask = {
      template: request.template,
      inputs: request.inputs,
      title: request.title,
      createdAt: request.createdAt,
    };
    for (let attempt = 1; ; attempt++) {
      if (closed) throw new RendererUnavailableError('the PDF renderer is shutting down');
      const started = performance.now();
      try {
        const outcome = await renderOnPlace(request.companyId, task);
        if (!outcome.ok) throw new RenderRejectedError(outcome.reason);
        return { bytes: outcome.pdf, pages: outcome.pages, sha256: outcome.sha256, renderMs: performance.now() - started };
      } catch (error) {
        if (!(error instanceof RenderThreadLostError)) throw error;
        if (error.reason === 'neighbour_timed_out' && attempt === 1) continue;
        throw new RendererUnavailableError(error.reason === 'stopped' ? 'the PDF renderer is shutting down' : 'the PDF renderer failed', { cause: error });
      }
    }
  }
}

function outcomeOf(error: unknown): RenderOutcome {
  if (error instanceof RenderRejectedError) return 'rejected';
  if (error instanceof RenderTimeoutError) return 'timeout';
  return 'unavailable';
}
