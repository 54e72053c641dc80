import { format } from 'node:util';
import { runCommand } from '../../src/cli/run-command.js';
import type { CliRun } from './cli-process.js';

let previous: Promise<unknown> = Promise.resolve();

/**
 * Runs `wrs ...` inside the test's process, as main.ts runs it (the same exit statuses, and an
 * uncaught error's stack on stderr), with what the command writes through `console` collected.
 * For tests of a command's logic: a process of its own costs about a second of start-up a run,
 * and the suites that use this keep real-process runs (runCli) for the start-up path itself.
 * Runs one command at a time, since a command reads process.env and writes through console.
 * Not for commands that read stdin or process.cwd(), or stream to process.stdout themselves.
 */
export function runCliInProcess(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  const run = previous.then(() => runNow(args, env));
  previous = run.catch(() => undefined);
  return run;
}

async function runNow(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  const savedEnv = { ...process.env };
  const { log, info, error, warn } = console;
  let stdout = '';
  let stderr = '';
  replaceEnv(env);
  console.log = console.info = (...values: unknown[]) => void (stdout += `${format(...values)}\n`);
  console.error = console.warn = (...values: unknown[]) => void (stderr += `${format(...values)}\n`);
  try {
    return { status: await runCommand(args), stdout, stderr };
  } catch (thrown) {
    stderr += `${thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown)}\n`;
    return { status: 1, stdout, stderr };
  } finally {
    Object.assign(console, { log, info, error, warn });
    replaceEnv(savedEnv);
  }
}

function replaceEnv(env: NodeJS.ProcessEnv): void {
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  for (const [name, value] of Object.entries(env)) if (value !== undefined) process.env[name] = value;
}
