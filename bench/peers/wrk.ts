import { execFile } from 'node:child_process';

/** One `wrk` run's figures, parsed from its report. */
export interface WrkResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers other than 2xx/3xx, and connect, read, write and timeout errors: not counted in the rate. */
  errors: number;
}

export interface WrkOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function latencyMs(report: string, percentile: string): number {
  const match = new RegExp(`^\\s*${percentile}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(report);
  // No answer came back within the run (a page slower than the run is long): no latency to give.
  return match ? Number(match[1]) * UNIT_MS[match[2]!]! : Number.NaN;
}

/** Parses `wrk --latency`'s report. */
function parseWrkReport(report: string): WrkResult {
  const rate = /^Requests\/sec:\s+([\d.]+)/m.exec(report);
  const total = /^\s*(\d+) requests in /m.exec(report);
  if (!rate || !total) throw new Error(`wrk printed no rate:\n${report}`);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(report);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(report);
  const refused = non2xx ? Number(non2xx[1]) : 0;
  const errors = (socket ? socket.slice(1, 5).reduce((sum, n) => sum + Number(n), 0) : 0) + refused;
  const requests = Number(total[1]);
  // wrk's rate counts every answer; a quick refusal is not the work asked for.
  const answered = requests === 0 ? 0 : (requests - refused) / requests;
  return { requestsPerSecond: Number(rate[1]) * answered, p50Ms: latencyMs(report, '50'), p99Ms: latencyMs(report, '99'), requests, errors };
}

/**
 * Drives one URL with Debian's `wrk` (one thread: the machine's other core serves), with a
 * timeout long enough that a slow 10,000-row page counts as slow rather than as an error.
 */
export function runWrk(options: WrkOptions): Promise<WrkResult> {
  const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--timeout', '60s', '--latency'];
  for (const [name, value] of Object.entries(options.headers)) args.push('-H', `${name}: ${value}`);
  args.push(options.url);
  return new Promise((resolve, reject) => {
    execFile(process.env.WRK ?? 'wrk', args, { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`wrk failed: ${error.message} ${stderr}`));
      try {
        resolve(parseWrkReport(stdout));
      } catch (parseError) {
        reject(parseError);
      }
    });
  });
}
