import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface CommandRun {
  status: number | null;
  output: string;
  /** How long it took, in milliseconds. */
  ms: number;
}

/**
 * The environment of an npm run from a test: the test's own, without the `npm_*` settings that
 * `npm test` passed down (an npm child would read them as its configuration).
 */
export function npmEnvironment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
  return { ...env, NODE_ENV: undefined, ...extra };
}

/** Runs a command to its end; answers its status, its output (stdout and stderr) and its duration. */
export function runCommand(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = npmEnvironment()): Promise<CommandRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output, ms: Date.now() - started }));
  });
}

/** Runs a command that must succeed; throws with its output otherwise. */
export async function mustRun(command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<CommandRun> {
  const run = await runCommand(command, args, cwd, env);
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited ${run.status}:\n${run.output}`);
  return run;
}

/** `npm pack` of the package in `packageDir` into `destination`; answers the tarball's path. */
export async function npmPack(packageDir: string, destination: string, extraArgs: string[] = []): Promise<string> {
  const before = new Set(readdirSync(destination));
  await mustRun('npm', ['pack', '--pack-destination', destination, ...extraArgs], packageDir);
  const made = readdirSync(destination).filter((name) => name.endsWith('.tgz') && !before.has(name));
  if (made.length !== 1) throw new Error(`npm pack in ${packageDir} made ${made.length} tarballs`);
  return join(destination, made[0]!);
}

/** The time of the newest change to a file under `dir`, in milliseconds. */
export function newestChange(dir: string): number {
  return Math.max(
    ...readdirSync(dir, { withFileTypes: true }).map((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? newestChange(path) : statSync(path).mtimeMs;
    }),
  );
}
