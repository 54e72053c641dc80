/** A one-line progress bar on stderr, redrawn at most ten times a second; silent when stderr is not a terminal. */
export interface ProgressBar {
  update(doneBytes: number, items: number): void;
  /** Clears the bar (the caller prints the final summary). */
  finish(): void;
}

const WIDTH = 30;
const REDRAW_MS = 100;

export function createProgressBar(totalBytes: number, unit: string, stream: NodeJS.WriteStream = process.stderr): ProgressBar {
  const started = performance.now();
  let lastDraw = 0;
  const active = stream.isTTY === true;
  return {
    update(doneBytes, items) {
      const now = performance.now();
      if (!active || now - lastDraw < REDRAW_MS) return;
      lastDraw = now;
      const share = totalBytes > 0 ? Math.min(doneBytes / totalBytes, 1) : 0;
      const filled = Math.round(share * WIDTH);
      const rate = items / Math.max((now - started) / 1000, 0.001);
      stream.write(
        `\r[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${(share * 100).toFixed(0).padStart(3)}% ` +
          `${megabytes(doneBytes)}/${megabytes(totalBytes)} MB  ${items.toLocaleString('en-US')} ${unit}  ` +
          `${Math.round(rate).toLocaleString('en-US')} ${unit}/s   `,
      );
    },
    finish() {
      if (active) stream.write(`\r${' '.repeat(WIDTH + 80)}\r`);
    },
  };
}

const megabytes = (bytes: number): string => (bytes / 1_048_576).toFixed(1);

/** The last line of an import: `imported 2,500 events into company "acme" in 0.4 s (6,250 events/s)`. */
export function importSummary(count: number, unit: string, companyId: string, startedMs: number): string {
  const seconds = (performance.now() - startedMs) / 1000;
  return (
    `imported ${count.toLocaleString('en-US')} ${unit} into company "${companyId}" in ${seconds.toFixed(1)} s ` +
    `(${Math.round(count / Math.max(seconds, 0.001)).toLocaleString('en-US')} ${unit}/s)`
  );
}
