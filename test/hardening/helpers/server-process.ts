import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_NODE_ARGS } from '../../helpers/cli-process.js';
import { freePort } from '../../helpers/free-port.js';
import { TEST_ADMIN_TOKEN, TEST_JWT_SECRET } from '../../helpers/test-app.js';

/** One JSON log line of the server (pino's shape). */
export type LogLine = Record<string, unknown> & { msg?: string; pid?: number };

/** `wrs serve` running as a real child process on a temporary SQLite database and a free port. */
export interface ServerProcess {
  readonly child: ChildProcess;
  readonly port: number;
  readonly url: string;
  readonly logs: LogLine[];
  /** Resolves with the first log line (already seen or to come) that matches. */
  waitForLog(match: (line: LogLine) => boolean, what: string): Promise<LogLine>;
  /** Resolves when `count` lines match. */
  waitForLogs(match: (line: LogLine) => boolean, count: number, what: string): Promise<LogLine[]>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills the process if still running and removes its files. */
  dispose(): Promise<void>;
}

export { freePort };

const WAIT_LIMIT_MS = 60_000;

export async function startServer(env: Record<string, string> = {}): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'wrs-serve-'));
  const port = await freePort();
  const child = spawn(process.execPath, [...CLI_NODE_ARGS, 'serve'], {
    cwd: process.cwd(),
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      WRS_ALLOWED_HOSTS: `127.0.0.1:${port}`,
      WRS_DATABASE_URL: `sqlite:${join(dir, 'wrs.db')}`,
      WRS_JWT_SECRET: TEST_JWT_SECRET,
      WRS_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      WRS_ENCRYPTION_KEY: '00'.repeat(32),
      WRS_LOG_LEVEL: 'info',
      WRS_PDF_WORKERS: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  const waiters = new Set<() => void>();
  let stderr = '';
  let buffered = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      if (!line.trim()) continue;
      try {
        logs.push(JSON.parse(line) as LogLine);
      } catch {
        logs.push({ msg: line });
      }
    }
    for (const wake of waiters) wake();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      resolve({ code, signal });
      for (const wake of waiters) wake();
    }),
  );

  const waitForLogs = (match: (line: LogLine) => boolean, count: number, what: string): Promise<LogLine[]> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = logs.filter(match);
        if (found.length >= count) {
          finish();
          resolve(found);
          return true;
        }
        if (child.exitCode !== null || child.signalCode !== null) {
          finish();
          reject(new Error(`server exited before ${what}\nstderr: ${stderr}\nlogs: ${logs.map((l) => l.msg).join(' | ')}`));
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`gave up waiting for ${what}\nstderr: ${stderr}\nlogs: ${logs.map((l) => l.msg).join(' | ')}`));
      }, WAIT_LIMIT_MS);
      const wake = () => void check();
      const finish = () => {
        clearTimeout(timer);
        waiters.delete(wake);
      };
      waiters.add(wake);
      check();
    });

  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    logs,
    waitForLogs,
    waitForLog: async (match, what) => (await waitForLogs(match, 1, what))[0]!,
    exited,
    async dispose() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** An HTTP/1.1 exchange written by hand, for requests that must stay half-sent. */
export interface RawConnection {
  readonly socket: Socket;
  write(text: string): void;
  /** Everything the server sent until it closed the connection. */
  readonly closed: Promise<string>;
}

export async function openRaw(port: number): Promise<RawConnection> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => {
    received += chunk;
  });
  const closed = new Promise<string>((resolve) => {
    socket.once('close', () => resolve(received));
    socket.on('error', () => undefined);
  });
  return { socket, write: (text) => void socket.write(text), closed };
}

/** Tries to connect; resolves with the connection error code, or null when it connected. */
export function connectOutcome(port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(null);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
