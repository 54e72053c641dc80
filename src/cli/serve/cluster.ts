import cluster, { type Address, type Worker } from 'node:cluster';
import type { ProcessLog } from './process-log.js';

export interface ClusterOptions {
  readonly workers: number;
  /** Each worker's drain bound; the primary waits that long plus a margin, then kills. */
  readonly shutdownTimeoutMs: number;
  readonly log: ProcessLog;
  /** Whether a worker's listening address is the API's (not the management listener's); default: every one is. */
  isApiListener?(address: Address): boolean;
  /** Called once, when the first worker listens to the API. */
  onFirstListening?(address: Address): void | Promise<void>;
}

/** Time past the workers' drain bound after which the primary kills workers still running. */
const KILL_MARGIN_MS = 10_000;

/**
 * The cluster primary: forks the workers (each runs the whole service; the primary accepts
 * connections and hands them round-robin to the workers), replaces a worker that dies, and on
 * SIGTERM or SIGINT asks every worker to shut down gracefully and exits when all have, 0 if
 * each exited cleanly. A worker that exits before it ever listened is a startup failure, not a
 * crash to retry: the cluster stops and exits with that worker's status (78 when the
 * configuration is at fault, such as a port already in use), or 1.
 */
export function runClusterPrimary(options: ClusterOptions): Promise<never> {
  const { log } = options;
  const live = new Set<Worker>();
  const listened = new Set<number>();
  let stopping = false;
  let failed = false;
  let startupFailureCode: number | undefined;
  let announced = false;

  const fork = (): void => {
    const worker = cluster.fork();
    live.add(worker);
  };

  const finish = (): void => {
    log.info({ clean: !failed }, 'cluster stopped');
    process.exit(startupFailureCode ?? (failed ? 1 : 0));
  };

  const stop = (reason: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ reason, workers: live.size }, 'stopping the workers');
    for (const worker of live) worker.process.kill('SIGTERM');
    setTimeout(() => {
      for (const worker of live) {
        log.error({ worker_pid: worker.process.pid }, 'worker did not stop in time: killing it');
        worker.process.kill('SIGKILL');
      }
      failed = true;
    }, options.shutdownTimeoutMs + KILL_MARGIN_MS).unref();
    if (live.size === 0) finish();
  };

  cluster.on('listening', (worker, address) => {
    listened.add(worker.id);
    log.info({ worker_pid: worker.process.pid, port: address.port }, 'worker listening');
    if (!announced && (options.isApiListener?.(address) ?? true)) {
      announced = true;
      void Promise.resolve(options.onFirstListening?.(address)).catch((error: unknown) => log.error({ err: String(error) }, 'start-up announcement failed'));
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    live.delete(worker);
    const fields = { worker_pid: worker.process.pid, code, signal };
    if (stopping) {
      if (code !== 0) failed = true;
      log.info(fields, 'worker stopped');
      if (live.size === 0) finish();
      return;
    }
    if (!listened.has(worker.id)) {
      failed = true;
      startupFailureCode ??= code !== null && code !== 0 ? code : 1;
      log.error(fields, 'worker failed to start: stopping the cluster');
      stop('a worker failed to start');
      return;
    }
    log.error(fields, 'worker died: starting a replacement');
    fork();
  });

  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  log.info({ workers: options.workers }, 'starting workers');
  for (let i = 0; i < options.workers; i++) fork();
  return new Promise<never>(() => undefined);
}
