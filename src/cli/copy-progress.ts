import cliProgress from 'cli-progress';
import type { CopiedTable, CopyListener, CopySummary, TableRows } from '../app-context.js';

/** How often a log (stderr not a terminal) gets a progress line within a long table. */
const LOG_INTERVAL_MS = 5_000;

export interface CopyProgress extends CopyListener {
  /** Clears the bar (before the summary is printed, or an error). */
  finish(): void;
}

/**
 * A copy's progress on stderr: a bar over all rows, with the table being copied, the rate and
 * the time left, when stderr is a terminal; otherwise one plain line per table copied and every
 * few seconds within a table, for logs (CI, systemd).
 */
export function createCopyProgress(stream: NodeJS.WriteStream = process.stderr): CopyProgress {
  return stream.isTTY === true ? terminalBar(stream) : logLines(stream);
}

export const silentProgress: CopyProgress = { started: () => undefined, copied: () => undefined, finish: () => undefined };

/** Rows copied across all tables, from each table's own count. */
function overallCounter(tables: readonly TableRows[]) {
  const doneBefore = new Map<CopiedTable, number>();
  let sum = 0;
  for (const { table, rows } of tables) {
    doneBefore.set(table, sum);
    sum += rows;
  }
  return { total: sum, at: (table: CopiedTable, rows: number) => doneBefore.get(table)! + rows };
}

function terminalBar(stream: NodeJS.WriteStream): CopyProgress {
  const bar = new cliProgress.SingleBar({
    stream,
    format: 'copying [{bar}] {percentage}% | {value}/{total} rows | {rate} rows/s | ETA {eta_formatted} | {table}',
    formatValue: (value, _options, type) => (type === 'value' || type === 'total' ? value.toLocaleString('en-US') : String(value)),
    barsize: 30,
    hideCursor: true,
    clearOnComplete: true,
    etaBuffer: 50,
  });
  let counter: ReturnType<typeof overallCounter> | undefined;
  let startedAt = 0;
  return {
    started(tables) {
      counter = overallCounter(tables);
      startedAt = performance.now();
      bar.start(counter.total, 0, { table: '', rate: 0 });
    },
    copied(table, rows) {
      const done = counter!.at(table, rows);
      bar.update(done, { table, rate: rowsPerSecond(done, startedAt).toLocaleString('en-US') });
    },
    finish() {
      bar.stop();
    },
  };
}

function logLines(stream: NodeJS.WriteStream): CopyProgress {
  let counter: ReturnType<typeof overallCounter> | undefined;
  let totals = new Map<CopiedTable, number>();
  let startedAt = 0;
  let lastLine = 0;
  return {
    started(tables) {
      counter = overallCounter(tables);
      totals = new Map(tables.map(({ table, rows }) => [table, rows]));
      startedAt = lastLine = performance.now();
      stream.write(`copying ${counter.total.toLocaleString('en-US')} rows in ${tables.length} tables\n`);
    },
    copied(table, rows) {
      const now = performance.now();
      const total = totals.get(table)!;
      if (rows < total && now - lastLine < LOG_INTERVAL_MS) return;
      lastLine = now;
      const done = counter!.at(table, rows);
      stream.write(
        `${table}: ${rows.toLocaleString('en-US')}/${total.toLocaleString('en-US')} rows; ` +
          `all tables ${done.toLocaleString('en-US')}/${counter!.total.toLocaleString('en-US')} ` +
          `(${rowsPerSecond(done, startedAt).toLocaleString('en-US')} rows/s)\n`,
      );
    },
    finish: () => undefined,
  };
}

const rowsPerSecond = (rows: number, startedAt: number): number => Math.round(rows / Math.max((performance.now() - startedAt) / 1000, 0.001));

/** The closing lines on stdout: the total, then the rows of each table. */
export function copySummary(summary: CopySummary, from: string, to: string): string {
  const total = summary.tables.reduce((sum, { rows }) => sum + rows, 0);
  const width = Math.max(...summary.tables.map(({ table }) => table.length));
  return [
    `copied ${total.toLocaleString('en-US')} rows from ${from} to ${to} in ${summary.seconds.toFixed(1)} s ` +
      `(${Math.round(total / Math.max(summary.seconds, 0.001)).toLocaleString('en-US')} rows/s); row counts verified`,
    ...summary.tables.map(({ table, rows }) => `  ${table.padEnd(width)} ${rows.toLocaleString('en-US').padStart(12)}`),
  ].join('\n');
}
