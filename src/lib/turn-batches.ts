/**
 * Runs synchronous tasks together, once per turn of the event loop: a task asked for while the
 * loop takes in its I/O (parsing requests, running their hooks and handlers) waits for the
 * check phase of the same turn (setImmediate), where every task asked for meanwhile runs, one
 * after the other, before any of their callers goes on.
 *
 * Why: a server that runs one request from its bytes to its answer before it parses the next
 * goes through the whole of its code (HTTP parser, framework, database driver, socket writes)
 * once per request, and that is more code than the processor's caches hold. Measured on a
 * SQLite point read served over HTTP, 50 connections (docs/benchmarks.md, "Reads gathered into a
 * turn"): the read costs about 7 µs in a loop and 28 µs between two requests' network code;
 * gathered, a whole record get fell from about 100 to 42 µs of CPU.
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
