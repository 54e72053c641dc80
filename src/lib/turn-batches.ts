/**
 * Runs synchronous tasks together, once per turn of the event loop: a task asked for while the
 * loop takes in its I/O (parsing requests, running their hooks and handlers) waits for the
 * check phase of the same turn (setImmediate), where every task asked for meanwhile runs, one
 * after the other, before any of their callers goes on.
 *
 * Why: a server that runs one request from its bytes to its answer before it parses the next
 * goes through the whole of its code (HTTP parser, framework, database driver, socket writes)
 * once per request, and that is more code than the processor's caches hold: a SQLite point read
 * between two requests' network code costs several times what it costs in a loop. Gathered, the
 * reads run with their code and pages warm (docs/benchmarks.md, "Mechanisms and their verdicts").
 *
 * A task runs at the latest in the turn it was asked in (one asked for during a batch runs in
 * the next turn), so nothing waits for a timer, and a lone request loses nothing: the check
 * phase follows its I/O at once. A task that throws fails its own caller only.
 */
export function turnBatches(): <T>(task: () => T) => Promise<T> {
  let waiting: Waiting[] = [];
  const runAll = (): void => {
    const batch = waiting;
    waiting = [];
    for (const { task, resolve, reject } of batch) {
      try {
        resolve(task());
      } catch (error) {
        reject(error);
      }
    }
  };
  return <T>(task: () => T) =>
    new Promise<T>((resolve, reject) => {
      if (waiting.push({ task, resolve: resolve as (value: unknown) => void, reject }) === 1) setImmediate(runAll);
    });
}

interface Waiting {
  task: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}
