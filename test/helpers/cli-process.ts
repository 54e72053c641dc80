import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PROJECT_ROOT } from './project-root.js';
import { TEST_ADMIN_TOKEN, TEST_JWT_SECRET } from './test-app.js';

export const ROOT = PROJECT_ROOT;

/**
 * `node` arguments that run the CLI from any working directory: the build in `dist/` when it is
 * newer than every source file (`npm ci` builds it, so CI runs it), else the sources through
 * tsx. The build starts in about half the time, and the CLI suites start it a few hundred times.
 */
export const CLI_NODE_ARGS = builtCliIsCurrent()
  ? [`${ROOT}dist/cli/main.js`]
  : ['--import', createRequire(import.meta.url).resolve('tsx'), `${ROOT}src/cli/main.ts`];

function builtCliIsCurrent(): boolean {
  let built: number;
  try {
    built = statSync(`${ROOT}dist/cli/main.js`).mtimeMs;
  } catch {
    return false;
  }
  const newerSource = (dir: string): boolean =>
    readdirSync(dir, { withFileTypes: true }).some((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? newerSource(path) : statSync(path).mtimeMs > built;
    });
  return !newerSource(`${ROOT}src`);
}

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a CLI run in tests: the test secrets and a SQLite file, plus `extra`. */
export function cliEnv(databasePath: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    NODE_ENV: 'test',
    WRS_DATABASE_URL: `sqlite:${databasePath}`,
    WRS_JWT_SECRET: TEST_JWT_SECRET,
    WRS_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    WRS_ENCRYPTION_KEY: '00'.repeat(32),
    WRS_LOG_LEVEL: 'silent',
    ...extra,
  };
}

/** Runs the real CLI (`wrs ...`) in a child process with exactly the environment given (in `cwd`, default the project). */
export function runCli(args: string[], env: NodeJS.ProcessEnv, stdin = '', cwd = ROOT): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI_NODE_ARGS, ...args], {
      cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** The three lines of the start screen to paste into a shell. */
export interface StartScreen {
  readonly base: string;
  readonly token: string;
  readonly adminToken: string;
}

const EXPORT_LINE = /^\s*export (BASE|TOKEN|ADMIN_TOKEN)=(\S+)$/gm;
const ANSI_ESCAPE = /\u001b\[[0-9;]*m/g;

/** Output of a terminal as plain lines: colours and carriage returns removed. */
export function plainText(output: string): string {
  return output.replace(ANSI_ESCAPE, '').replace(/\r/g, '');
}

/** The BASE, TOKEN and ADMIN_TOKEN exported by the start screen, once all three are printed. */
export function parseStartScreen(output: string): StartScreen | undefined {
  const found = new Map([...plainText(output).matchAll(EXPORT_LINE)].map((match) => [match[1], match[2]!]));
  const [base, token, adminToken] = [found.get('BASE'), found.get('TOKEN'), found.get('ADMIN_TOKEN')];
  return base && token && adminToken ? { base, token, adminToken } : undefined;
}

/** A long-running process whose standard output is collected. */
export interface RunningProcess {
  readonly child: ChildProcess;
  /** Everything written to stdout so far. */
  output(): string;
  /** Resolves when `output()` satisfies `ready` (with what it answered), rejects if the process exits first or after `timeoutMs`. */
  waitFor<T>(ready: (output: string) => T | undefined, timeoutMs?: number): Promise<T>;
  /** SIGTERM, then the exit status. */
  stop(): Promise<number | null>;
}

/** Spawns `command` with stdout piped (and stderr kept for failure messages). */
export function startProcess(command: string, args: string[], options: { env: NodeJS.ProcessEnv; cwd?: string }): RunningProcess {
  const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => stdout,
    waitFor(ready, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const answer = ready(stdout);
          if (answer === undefined) return false;
          clearInterval(poll);
          clearTimeout(timer);
          resolve(answer);
          return true;
        };
        const poll = setInterval(check, 50);
        const timer = setTimeout(() => {
          clearInterval(poll);
          reject(new Error(`timed out waiting\nstdout: ${stdout}\nstderr: ${stderr}`));
        }, timeoutMs);
        void exited.then((code) => {
          if (check()) return;
          clearInterval(poll);
          clearTimeout(timer);
          reject(new Error(`exited with ${code}\nstdout: ${stdout}\nstderr: ${stderr}`));
        });
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await exited;
      clearTimeout(killer);
      return code;
    },
  };
}

/** `wrs serve` in a child process, stdout piped. */
export function startServe(env: NodeJS.ProcessEnv, cwd = ROOT): RunningProcess {
  return startProcess(process.execPath, [...CLI_NODE_ARGS, 'serve'], { env, cwd });
}
