import { execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../helpers/free-port.js';

/** Debian's PostgreSQL 15 programs, as `.ci/run`'s machine has them. */
const BIN = '/usr/lib/postgresql/15/bin';

export const hasPostgresPrograms = (): boolean => existsSync(join(BIN, 'pg_basebackup'));

/** A PostgreSQL cluster of this test's own: its folder, port and URL of the `wrs` database. */
export interface Cluster {
  readonly dir: string;
  readonly port: number;
  readonly url: string;
  start(): void;
  /** A fast shutdown: sessions are ended, as when the machine goes down cleanly. */
  stop(): void;
  /** Runs one statement on a connection of its own to `database` (default `wrs`); none is left open. */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[], database?: string): Promise<R[]>;
}

export interface PrimaryAndStandby {
  readonly primary: Cluster;
  readonly standby: Cluster;
  /** Stops both clusters and removes their folders; safe after a failure half way. */
  remove(): void;
}

/**
 * A primary on a free port that allows replication from 127.0.0.1, and a hot standby made from
 * it with `pg_basebackup -R` on another; both tuned for speed over safety (no fsync). As root,
 * PostgreSQL's programs run as the `postgres` user, which owns the folders.
 */
export async function startPrimaryAndStandby(): Promise<PrimaryAndStandby> {
  const base = mkdtempSync(join(tmpdir(), 'wrs-replicas-'));
  const owner = postgresOwner();
  if (owner) chownSync(base, owner.uid, owner.gid);
  const started: Cluster[] = [];
  const remove = () => {
    for (const cluster of started) {
      try {
        run('pg_ctl', ['-D', cluster.dir, '-m', 'immediate', '-w', 'stop'], base);
      } catch {
        // Already stopped.
      }
    }
    rmSync(base, { recursive: true, force: true });
  };
  try {
    const primary = cluster(base, 'primary', await freePort());
    run('initdb', ['-D', primary.dir, '-U', 'postgres', '-A', 'trust', '-N', '--no-instructions'], base);
    appendFileSync(`${primary.dir}/postgresql.conf`, settings(base, primary.port));
    appendFileSync(`${primary.dir}/pg_hba.conf`, 'host replication all 127.0.0.1/32 trust\n');
    started.push(primary);
    primary.start();
    const standby = cluster(base, 'standby', await freePort());
    run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', standby.dir, '-R', '-X', 'stream', '-c', 'fast'], base);
    // The copied postgresql.conf names the primary's port: a later line wins.
    appendFileSync(`${standby.dir}/postgresql.conf`, `port = ${standby.port}\n`);
    started.push(standby);
    standby.start();
    await primary.query('create database wrs', [], 'postgres');
    await waitFor(
      async () => (await standby.query<{ n: number }>("select count(*)::int as n from pg_database where datname = 'wrs'", [], 'postgres'))[0]!.n === 1,
    );
    return { primary, standby, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

function settings(base: string, port: number): string {
  return [
    `port = ${port}`,
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${base}'`,
    'fsync = off',
    'full_page_writes = off',
    'synchronous_commit = off',
    'shared_buffers = 16MB',
    'max_connections = 50',
    'wal_level = replica',
    'max_wal_senders = 4',
    'hot_standby = on',
    '',
  ].join('\n');
}

function cluster(base: string, name: string, port: number): Cluster {
  const dir = join(base, name);
  return {
    dir,
    port,
    url: `postgres://postgres@127.0.0.1:${port}/wrs`,
    start: () => run('pg_ctl', ['-D', dir, '-l', join(base, `${name}.log`), '-w', 'start'], base),
    stop: () => run('pg_ctl', ['-D', dir, '-m', 'fast', '-w', 'stop'], base),
    async query(text, values = [], database = 'wrs') {
      const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/${database}` });
      await client.connect();
      try {
        return (await client.query(text, values)).rows;
      } finally {
        await client.end();
      }
    },
  };
}

function run(program: string, args: string[], cwd: string): void {
  const path = join(BIN, program);
  if (postgresOwner()) execFileSync('runuser', ['-u', 'postgres', '--', path, ...args], { cwd, stdio: 'pipe' });
  else execFileSync(path, args, { cwd, stdio: 'pipe' });
}

/** The `postgres` user when running as root (PostgreSQL refuses to run as root); else undefined. */
function postgresOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString());
  return { uid: id('-u'), gid: id('-g') };
}

export async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`not so within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
