import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_NODE_ARGS } from '../helpers/cli-process.js';
import { PROJECT_ROOT } from '../helpers/project-root.js';

export const ROOT = PROJECT_ROOT;

/** The command that runs this checkout's `wrs` from any folder. */
export const CLI_COMMAND = [process.execPath, ...CLI_NODE_ARGS].map((word) => JSON.stringify(word)).join(' ');

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

const EXPORT_NAMES = ['BASE', 'TOKEN', 'ADMIN_TOKEN'] as const;
/** The start screen prints its lines at once: past this, a missing line is missing. */
const REST_OF_SCREEN_MS = 2_000;

/** The `export` lines a start screen has printed so far. */
export function exportLines(screen: string): Partial<DemoExports> {
  const found: Partial<Record<(typeof EXPORT_NAMES)[number], string>> = {};
  for (const match of screen.matchAll(EXPORT_LINE)) found[match[1] as (typeof EXPORT_NAMES)[number]] = match[2]!;
  return found;
}

/** The three `export` lines of a start screen, once all three have been printed. */
export function parseExports(screen: string): DemoExports | undefined {
  const { BASE, TOKEN, ADMIN_TOKEN } = exportLines(screen);
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
  const child: ChildProcess = spawn(process.execPath, [...CLI_NODE_ARGS, 'serve'], {
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
      let incomplete: NodeJS.Timeout | undefined;
      const check = () => {
        const found = parseExports(output);
        if (found) {
          clearTimeout(timer);
          clearTimeout(incomplete);
          resolve(found);
        } else if (!incomplete && Object.keys(exportLines(output)).length > 0) {
          incomplete = setTimeout(() => {
            clearTimeout(timer);
            const missing = EXPORT_NAMES.filter((name) => !(name in exportLines(output)));
            reject(new Error(`the start screen prints no \`  export NAME=...\` line for ${missing.join(', ')}`));
          }, REST_OF_SCREEN_MS);
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
