import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
export { freePort } from '../helpers/free-port.js';

/**
 * The newest PostgreSQL server binaries on this machine (Debian's /usr/lib/postgresql/N/bin),
 * or undefined when none is installed with what the recipe needs.
 */
export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  const needed = ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'];
  return versions.map((version) => join(root, version, 'bin')).find((bin) => needed.every((tool) => existsSync(join(bin, tool))));
}

/**
 * Runs a PostgreSQL tool as the `postgres` OS user when the tests run as root (the server
 * refuses to run as root, and its files must belong to the user it runs as).
 */
export function asPostgres(bin: string, tool: string, args: string[]): string {
  const [command, commandArgs] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
  const result = spawnSync(command, commandArgs, { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed (${result.status ?? result.signal}): ${result.stderr}${result.stdout}`);
  return result.stdout;
}

/** Gives a folder to the `postgres` user (when running as root), so the server may write in it. */
export function giveToPostgres(path: string): void {
  if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres:postgres', path]);
}

/** A cluster's data folder, started with pg_ctl; `stop` never throws (it runs in cleanups). */
export interface Cluster {
  readonly url: (database: string) => string;
  stop(): void;
}

export function startCluster(bin: string, dataDir: string, port: number): Cluster {
  const log = `${dataDir}.log`;
  try {
    asPostgres(bin, 'pg_ctl', ['-D', dataDir, '-l', log, '-w', '-t', '60', '-o', `-p ${port}`, 'start']);
  } catch (error) {
    // pg_ctl only says "examine the log output": the server's own reason is in the log.
    const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-30).join('\n') : '(no log)';
    throw new Error(`${(error as Error).message}\nserver log:\n${tail}`);
  }
  return {
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop() {
      try {
        asPostgres(bin, 'pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Already stopped, or never started: the folder is removed next either way.
      }
    },
  };
}
