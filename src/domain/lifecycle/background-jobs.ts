/**
 * The lifecycle jobs this process runs after answering the request that asked for them. On
 * close it stops them between two batches (each batch is its own transaction, so nothing is
 * half done) and waits; their leases lapse and the next service start continues them.
 */
export interface BackgroundJobs {
  launch(work: () => Promise<unknown>, onError: (error: unknown) => void): void;
  /** Launches `work` now and every `intervalMs` after, never twice at once, until `stop`. */
  repeat(intervalMs: number, work: () => Promise<unknown>, onError: (error: unknown) => void): void;
  /** True once `stop` was called: a job's loop ends after its current batch. */
  readonly stopping: boolean;
  stop(): Promise<void>;
  /** Resolves once the jobs running now have ended (tests compare stored data after it). */
  settled(): Promise<void>;
}

export function createBackgroundJobs(): BackgroundJobs {
  const running = new Set<Promise<unknown>>();
  const timers = new Set<NodeJS.Timeout>();
  let stopping = false;
  function launch(work: () => Promise<unknown>, onError: (error: unknown) => void): Promise<unknown> | undefined {
    if (stopping) return undefined;
    const job = work()
      .catch(onError)
      .finally(() => running.delete(job));
    running.add(job);
    return job;
  }
  return {
    launch,
    repeat(intervalMs, work, onError) {
      let current: Promise<unknown> | undefined;
      const tick = () => {
        if (!current) current = launch(work, onError)?.finally(() => (current = undefined));
      };
      const timer = setInterval(tick, intervalMs);
      timer.unref();
      timers.add(timer);
      tick();
    },
    get stopping() {
      return stopping;
    },
    async settled() {
      await Promise.allSettled([...running]);
    },
    async stop() {
      stopping = true;
      for (const timer of timers) clearInterval(timer);
      await Promise.allSettled([...running]);
    },
  };
}
