import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TEST_ADMIN_TOKEN, TEST_JWT_SECRET } from './test-app.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

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

/** Runs the real CLI (`wrs ...`) in a child process with exactly the environment given. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, stdin = ''): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: ROOT,
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
