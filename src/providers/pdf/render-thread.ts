import { fileURLToPath } from 'node:url';
import type { ResourceLimits } from 'node:worker_threads';
import { RendererUnavailableError, RenderTimeoutError } from '../../domain/templates/pdf-renderer.port.js';
import { startRenderHost, type RenderIsolation } from './render-host.js';
import type { RenderOutcome, RenderTask } from './render-task.js';
import type { RenderThreadMessage } from './render-thread-protocol.js';
import { createShareTimers } from './share-timers.js';

/** A render lost its thread: it timed out with a neighbour, the thread died, or it was stopped. */
export class RenderThreadLostError extends Error {
  constructor(
    readonly reason: 'neighbour_timed_out' | 'thread_failed' | 'stopped',
    options?: { cause?: unknown },
  ) {
    super(`the PDF render thread was lost (${reason.replace(/_/g, ' ')})`, options);
    this.name = 'RenderThreadLostError';
  }
}

export interface RenderThreadOptions {
  /** The render module (a file URL or path); exports `default(task)` and optionally `warmup()`. */
  renderModule: string;
  /** How long loading the module may take before the thread is given up. */
  startupTimeoutMs: number;
  /** The thread's own scheduling priority, as a nice value (0: the process's). */
  nice: number;
  /** A worker thread (the default) or a child process (render-host.ts says why). */
  isolation?: RenderIsolation;
  resourceLimits?: ResourceLimits;
  /** The thread takes no more renders (a timeout, a crash, stop()); called once or twice (when it stops, when it has exited). */
  onExit(thread: RenderThread): void;
  /** The thread has no render in flight any more. */
  onIdle(thread: RenderThread): void;
  /** Errors that belong to no render (a thread that failed while idle). */
  onError(error: unknown): void;
}

export interface RenderThread {
  /** Renders given to this thread and not settled, those waiting for it to start included. */
  readonly inFlight: number;
  /** The thread has loaded the render module and takes renders at once. */
  readonly ready: boolean;
  /** Settles when the thread has loaded the render module, or rejects when it could not. */
  readonly started: Promise<void>;
  /** The thread is stopping or has stopped: it takes no more renders. */
  readonly retiring: boolean;
  /**
   * Renders on this thread; the timeout counts the render's share of the thread from the moment
   * the thread is ready. A render past it is answered RenderTimeoutError and the thread is
   * terminated (only that stops a synchronous loop); its neighbours get RenderThreadLostError.
   */
  render(task: RenderTask, timeoutMs: number): Promise<RenderOutcome>;
  stop(): Promise<void>;
}

interface Pending {
  readonly timeoutMs: number;
  resolve(outcome: RenderOutcome): void;
  reject(error: unknown): void;
}

export function startRenderThread(options: RenderThreadOptions): RenderThread {
  const renderModule = options.renderModule.startsWith('file:') ? fileURLToPath(options.renderModule) : options.renderModule;
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let inFlight = 0;
  let isReady = false;
  let exited = false;
  let retiring = false;
  let lostReason: RenderThreadLostError['reason'] = 'thread_failed';
  let failure: unknown;

  /** From now on the thread takes no render; those in flight are lost with `reason` when it exits. */
  const retire = (reason: RenderThreadLostError['reason']): Promise<unknown> => {
    if (!retiring) {
      retiring = true;
      lostReason = reason;
      options.onExit(thread);
    }
    return worker.terminate();
  };

  const expire = (id: number, error?: RenderTimeoutError): void => {
    const expired = pending.get(id);
    if (!expired) return;
    pending.delete(id);
    timers.stopAll();
    clearPreparations();
    expired.reject(error ?? new RenderTimeoutError(expired.timeoutMs));
    void retire('neighbour_timed_out');
  };
  const timers = createShareTimers<number>(expire);

  // While the thread loads what one render needs beyond its warm-up (pdfme's full plugin set on
  // the first template that uses more than text), that render's clock stops: the load is bounded
  // by the start-up timeout, as the thread's own start is, not by the render's budget.
  const preparations = new Map<number, NodeJS.Timeout>();
  const clearPreparations = (): void => {
    for (const timer of preparations.values()) clearTimeout(timer);
    preparations.clear();
  };
  const onPreparation = (type: 'preparing' | 'prepared', id: number): void => {
    if (!pending.has(id)) return;
    clearTimeout(preparations.get(id));
    preparations.delete(id);
    if (type === 'preparing') {
      timers.pause(id);
      const loadTimedOut = (): void =>
        expire(id, new RenderTimeoutError(options.startupTimeoutMs, 'loading the PDF plugins this template needs (the start-up timeout)'));
      preparations.set(id, setTimeout(loadTimedOut, options.startupTimeoutMs));
    } else {
      timers.resume(id);
    }
  };

  let markReady: () => void;
  let failStart: (error: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failStart = reject;
  });
  // A thread that fails to start with no render waiting must not be an unhandled rejection.
  ready.catch(() => undefined);
  const startupTimer = setTimeout(() => {
    failStart(new Error(`the render module did not load within ${options.startupTimeoutMs} ms`));
    void worker.terminate();
  }, options.startupTimeoutMs);

  const onMessage = (message: RenderThreadMessage): void => {
    if (message.type === 'ready') {
      clearTimeout(startupTimer);
      isReady = true;
      markReady();
      return;
    }
    if (message.type !== 'outcome') {
      onPreparation(message.type, message.id);
      return;
    }
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    timers.stop(message.id);
    waiting.resolve(message.outcome);
  };
  const onError = (error: unknown): void => {
    failure = error;
    failStart(error);
    if (pending.size === 0) options.onError(error);
  };
  const onExit = (): void => {
    exited = true;
    retiring = true;
    clearTimeout(startupTimer);
    failStart(failure ?? new Error('the render thread exited while starting'));
    timers.stopAll();
    clearPreparations();
    for (const lost of pending.values()) lost.reject(new RenderThreadLostError(lostReason, { cause: failure }));
    pending.clear();
    options.onExit(thread);
  };
  const worker = startRenderHost({
    isolation: options.isolation ?? 'thread',
    renderModule,
    nice: options.nice,
    resourceLimits: options.resourceLimits,
    onMessage,
    onError,
    onExit,
  });

  const thread: RenderThread = {
    get inFlight() {
      return inFlight;
    },

    get retiring() {
      return retiring;
    },

    get ready() {
      return isReady && !retiring;
    },

    started: ready,

    async render(task, timeoutMs) {
      inFlight += 1;
      try {
        try {
          await ready;
        } catch (error) {
          throw new RendererUnavailableError('the PDF renderer could not start', { cause: error });
        }
        if (retiring) throw new RenderThreadLostError(lostReason, { cause: failure });
        const id = nextId++;
        const outcome = new Promise<RenderOutcome>((resolve, reject) => pending.set(id, { timeoutMs, resolve, reject }));
        timers.start(id, timeoutMs);
        worker.post({ id, task });
        return await outcome;
      } finally {
        inFlight -= 1;
        if (inFlight === 0 && !retiring) options.onIdle(thread);
      }
    },

    async stop() {
      if (!exited) await retire('stopped');
    },
  };
  return thread;
}
