export interface WarningLog {
  warn(details: object, message: string): void;
}

/**
 * A warning logged at most once per interval: a failure that repeats on every request would
 * otherwise write a line per request. Each line says how many were left out since the last.
 */
export function throttledWarning(log: WarningLog, message: string, intervalMs: number, now: () => number = Date.now): (error: Error) => void {
  let lastAt = -Infinity;
  let leftOut = 0;
  return (error) => {
    const at = now();
    if (at - lastAt < intervalMs) {
      leftOut += 1;
      return;
    }
    log.warn({ err: error, leftOut }, message);
    lastAt = at;
    leftOut = 0;
  };
}
