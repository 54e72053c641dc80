import type { LifecycleJob } from './lifecycle-job.js';

/**
 * The lifecycle jobs this process runs after answering the request that asked for them. On
 * close it stops them between two batches (each batch is its own transaction, so nothing is
 * half done) and waits; their leases lapse and the next service start continues them.
 */
export interface BackgroundJobs {
  /** Starts the job (unless stopping); resolves once it has ended, its error given to `onError`. */
  launch(job: LifecycleJob, onError: (error: unknown) => void): Promise<void>;
  /**
   * Every `intervalMs` (the first time at once, unless `firstAfterInterval`), asks `due` in this
   * thread which jobs are to run and launches them, never while the last round's still run,
   * until `stop` or the returned function is called. Asking here first keeps a thread that runs
   * the jobs from being started for rounds that find nothing to do.
   */
  repeat(
    intervalMs: number,
    due: () => Promise<readonly LifecycleJob[]>,
    onError: (error: unknown) => void,
    options?: { readonly firstAfterInterval?: boolean },
  ): () => void;
  /** True once `stop` was called: a job's loop ends after its current batch. */
  readonly stopping: boolean;
  stop(): Promise<void>;
  /** Resolves once the jobs running now have ended (tests compare stored data after it). */
  settled(): Promise<void>;
}

/** Where the jobs run: `run` does one (here, or in another thread); `stop` ends that place's running jobs after their batch. */
export interface JobRunner {
  run(job: LifecycleJob): Promise<unknown>;
  stop(): Promise<void>;
}

export function createBackgroundJobs(runner: JobRunner): BackgroundJobs {
  const running = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  let stopping = false;
  function launch(job: LifecycleJob, onError: (error: unknown) => void): Promise<void> {
    if (stopping) return Promise.resolve();
    const ended = runner
      .run(job)
      .then(() => undefined, onError)
      .finally(() => running.delete(ended));
    running.add(ended);
    return ended;
  }
  return {
    launch,
    repeat(intervalMs, due, onError, options = {}) {
      let current: Promise<unknown> | undefined;
      const round = async () => {
        const jobs = await due();
        await Promise.all(jobs.map((job) => launch(job, onError)));
      };
      const tick = () => {
        if (!current && !stopping)
          current = round()
            .catch(onError)
            .finally(() => (current = undefined));
      };
      const timer = setInterval(tick, intervalMs);
      timer.unref();
      timers.add(timer);
      if (!options.firstAfterInterval) tick();
      return () => {
        clearInterval(timer);
        timers.delete(timer);
      };
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
      await runner.stop();
      await Promise.allSettled([...running]);
    },
  };
}
