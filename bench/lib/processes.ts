import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export interface RunningProcess {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  /** Resident set size now, in bytes (from /proc). */
  rss(): number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Starts a server process and waits until `readyPath` answers 200. */
export async function startProcess(args: string[], env: Record<string, string>, port: number, readyPath = '/healthz'): Promise<RunningProcess> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`process exited early (${child.exitCode}): ${stderr}`);
    try {
      const response = await fetch(baseUrl + readyPath);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`process did not become ready: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    baseUrl,
    rss: () => rssOf(child.pid!),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

/** Samples a process's RSS every 50 ms while `work` runs; returns the work's result and the peak. */
export async function withPeakRss<T>(proc: RunningProcess, work: () => Promise<T>): Promise<{ result: T; peakRss: number; startRss: number }> {
  const startRss = proc.rss();
  let peakRss = startRss;
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, proc.rss());
  }, 50);
  try {
    const result = await work();
    peakRss = Math.max(peakRss, proc.rss());
    return { result, peakRss, startRss };
  } finally {
    clearInterval(timer);
  }
}
