import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** tsx's loader by absolute URL: the demo runs in a folder of its own, where `--import tsx` would not resolve. */
export const TSX_LOADER = import.meta.resolve('tsx');
const MAIN = join(ROOT, 'src/cli/main.ts');

/** The command that runs this checkout's `wrs` from any folder. */
export const CLI_COMMAND = `${JSON.stringify(process.execPath)} --import ${JSON.stringify(TSX_LOADER)} ${JSON.stringify(MAIN)}`;

/** What the start screen tells a newcomer to export. */
export interface DemoExports {
  readonly BASE: string;
  readonly TOKEN: string;
  readonly ADMIN_TOKEN: string;
}

export interface DemoService {
  readonly exports: DemoExports;
  /** The folder the demo runs in and keeps its data in. */
  readonly dir: string;
  /** The environment a shell next to the demo has: the exports, and where the data is. */
  readonly shellEnv: NodeJS.ProcessEnv;
  output(): string;
  stop(): Promise<void>;
}

const START_LIMIT_MS = 60_000;
const EXPORT_LINE = /^\s*export (BASE|TOKEN|ADMIN_TOKEN)=(\S+)$/gm;

/** The three `export` lines of a start screen, once all three have been printed. */
export function parseExports(screen: string): DemoExports | undefined {
  const found: Record<string, string> = {};
  for (const match of screen.matchAll(EXPORT_LINE)) found[match[1]!] = match[2]!;
  const { BASE, TOKEN, ADMIN_TOKEN } = found;
  return BASE && TOKEN && ADMIN_TOKEN ? { BASE, TOKEN, ADMIN_TOKEN } : undefined;
}

/**
 * Starts the demo as `npm start` does for a newcomer: `wrs serve` in development, no secrets in
 * the environment (it generates them), in a fresh folder holding its data, on a free port. Then
 * reads the export lines of its start screen. `databaseUrl` puts the data on PostgreSQL instead.
 */
export async function startDemo(databaseUrl?: string): Promise<DemoService> {
  const dir = mkdtempSync(join(tmpdir(), 'wrs-docs-'));
  const dataEnv = {
    WRS_DATA_DIR: dir,
    WRS_DATABASE_URL: databaseUrl ?? `sqlite:${join(dir, 'wrs.db')}`,
  };
  const child: ChildProcess = spawn(process.execPath, ['--import', TSX_LOADER, MAIN, 'serve'], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir, NODE_ENV: 'development', PORT: '0', WRS_LOG_LEVEL: 'warn', ...dataEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    const exports = await new Promise<DemoExports>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no export lines within ${START_LIMIT_MS / 1000} s`)), START_LIMIT_MS);
      const check = () => {
        const found = parseExports(output);
        if (found) {
          clearTimeout(timer);
          resolve(found);
        }
      };
      child.stdout!.on('data', check);
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`wrs serve exited (status ${child.exitCode})`));
      });
    });
    return {
      exports,
      dir,
      shellEnv: { PATH: process.env.PATH, HOME: dir, NODE_ENV: 'development', ...dataEnv, ...exports },
      output: () => output,
      stop,
    };
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\nthe start screen:\n${output}`);
  }
}

