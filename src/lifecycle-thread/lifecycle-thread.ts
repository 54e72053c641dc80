import type { Worker } from 'node:worker_threads';
import type { BackgroundJobs, JobRunner } from '../domain/lifecycle/background-jobs.js';
import type { LifecycleJob } from '../domain/lifecycle/lifecycle-job.js';
import type { RetentionObserver } from '../domain/retention/retention-observer.port.js';
import type { RetentionService } from '../domain/retention/retention-service.js';
import { siblingModule, startModuleThread } from '../lib/module-thread.js';
import { fromThreadError, type FromLifecycleThread, type LifecycleThreadData, type ToLifecycleThread } from './lifecycle-thread-protocol.js';

const THREAD_MAIN_FILE = siblingModule(import.meta.url, 'lifecycle-thread-main');

/** The SQLite files whose jobs can run on a connection of their own; an in-memory database is this connection's alone. */
export function sharesWithThread(databaseUrl: string): boolean {
  if (!databaseUrl.startsWith('sqlite:')) return false;
  const path = databaseUrl.slice('sqlite:'.length);
  return path !== '' && path !== ':memory:';
}

export interface LifecycleThreadHooks {
  /** Told what the thread's retention sweeps removed and kept (the serving thread's metrics). */
  readonly retentionObserver: RetentionObserver;
  /** A sweep removed events of the company: the serving thread's stream clients check their position. */
  readonly feedChanged: (companyId: string) => void;
}

/** How long the thread stays after its last job ended: a thread and its connection hold memory a quiet process need not. */
const IDLE_MS = 10_000;

/**
 * Where a SQLite serving process runs its lifecycle jobs: a worker thread with its own
 * connection to the same file, started at a job and ended once idle. Each batch's statements
 * run synchronously in better-sqlite3, so on the serving thread a batch holds every request of
 * the process; there, WAL lets the serving thread read while the thread writes, and a write of
 * the serving thread waits at most one batch for the write lock (the busy timeout covers it).
 */
export type LifecycleThread = JobRunner;

type Unnumbered<T> = T extends unknown ? Omit<T, 'seq'> : never;

export function createLifecycleThread(data: LifecycleThreadData, hooks: LifecycleThreadHooks): LifecycleThread {
  /** The thread that takes new jobs; one being ended is no longer it. */
  let worker: Worker | undefined;
  let sequence = 0;
  const pending = new Map<number, { readonly target: Worker; resolve: () => void; reject: (error: Error) => void }>();
  let idleTimer: NodeJS.Timeout | undefined;

  const settle = (seq: number, error?: Error) => {
    const waiting = pending.get(seq);
    if (!waiting) return;
    pending.delete(seq);
    if (error) waiting.reject(error);
    else waiting.resolve();
    if (worker && ![...pending.values()].some((entry) => entry.target === worker)) {
      // An idle thread does not hold the process open (a serving process has its listener for that).
      worker.unref();
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => void (worker && endThread(worker)), IDLE_MS);
      idleTimer.unref();
    }
  };

  /** Ends a thread after its jobs' current batch; the next job starts a new one. */
  const endThread = async (current: Worker) => {
    if (worker === current) worker = undefined;
    await request({ type: 'stop' }, current).catch(() => undefined);
    await current.terminate();
  };

  const onMessage = (message: FromLifecycleThread) => {
    switch (message.type) {
      case 'ended':
        return settle(message.seq, message.error && fromThreadError(message.error));
      case 'retention-removed':
        return hooks.retentionObserver.removed(message.events);
      case 'retention-oldest-kept':
        return hooks.retentionObserver.oldestKept(message.createdAt);
      case 'feed-changed':
        return hooks.feedChanged(message.companyId);
    }
  };

  const started = (): Worker => {
    if (worker) return worker;
    const next = startModuleThread(THREAD_MAIN_FILE, 'runLifecycleThread', [], { workerData: data });
    next.on('message', onMessage);
    // A thread that fails or exits takes its jobs with it: they fail here, and their leases lapse
    // for the next resume. The next job starts a new thread.
    const lost = (error: Error) => {
      if (worker === next) worker = undefined;
      for (const [seq, entry] of [...pending]) if (entry.target === next) settle(seq, error);
    };
    next.on('error', lost);
    next.on('exit', (code) => lost(new Error(`the lifecycle thread exited (code ${code})`)));
    worker = next;
    return next;
  };

  function request(message: Unnumbered<ToLifecycleThread>, target: Worker = started()): Promise<void> {
    if (target === worker) clearTimeout(idleTimer);
    return new Promise((resolve, reject) => {
      const seq = ++sequence;
      pending.set(seq, { target, resolve, reject });
      target.ref();
      target.postMessage({ ...message, seq } as ToLifecycleThread);
    });
  }

  return {
    run: (job: LifecycleJob) => request({ type: 'run', job }),
    async stop() {
      clearTimeout(idleTimer);
      if (worker) await endThread(worker);
    },
  };
}

/**
 * The retention service of a process whose sweeps run in the lifecycle thread: each interval's
 * sweep is a job of `jobs` (which `close` stops after its batch); `sweep` (the CLI's, the
 * tests') stays in this thread.
 */
export function sweepingInThread(retention: RetentionService, jobs: BackgroundJobs, intervalMs: number): RetentionService {
  let stopRepeating: (() => void) | undefined;
  return {
    ...retention,
    start(onError) {
      stopRepeating ??= jobs.repeat(intervalMs, async () => [{ kind: 'retention-sweep' }], onError, { firstAfterInterval: true });
    },
    async stop() {
      stopRepeating?.();
      stopRepeating = undefined;
      await retention.stop();
    },
  };
}
