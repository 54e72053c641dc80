import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import pg from 'pg';
import { eventsPerCompany, recordsPerCompany, type DataPlan } from './data.js';
import { loadDataSet, type LoadedData } from './load-data.js';
import type { RunningProcess } from './processes.js';

/** How the bench starts the service and makes its database: shared by bench/run.ts and bench/side-by-side.ts. */
export const JWT_SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';
export const ADMIN_TOKEN = 'bench-admin-token-0123456789';

export type DbKind = 'sqlite' | 'postgres';

export function dbKindOf(value: string | undefined): DbKind {
  if (value !== 'sqlite' && value !== 'postgres') throw new Error('--db is sqlite or postgres');
  return value;
}

export async function userToken(company: string): Promise<string> {
  return new SignJWT({ company_id: company, sub: 'bench-user' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(new TextEncoder().encode(JWT_SECRET));
}

export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** An empty database: a SQLite file in a fresh temporary folder, or a PostgreSQL database on WRS_BENCH_PG_URL's server. */
const adminUrl = process.env.WRS_BENCH_PG_URL ?? process.env.WRS_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** One statement on the PostgreSQL server's admin database (creating and dropping the bench's own). */
async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function createDatabase(dbKind: DbKind, suffix = ''): Promise<BenchDatabase> {
  if (dbKind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'wrs-bench-'));
    return { url: `sqlite:${join(dir, 'wrs.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `wrs_bench_${process.pid}${suffix}`;
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * A copy of a database no service has open: the SQLite file (with its WAL, if one is left), or a
 * PostgreSQL database made from it as a template.
 */
export async function copyDatabase(dbKind: DbKind, source: BenchDatabase, suffix: string): Promise<BenchDatabase> {
  const copy = await createDatabase(dbKind, suffix);
  if (dbKind === 'sqlite') {
    const from = source.url.slice('sqlite:'.length);
    const to = copy.url.slice('sqlite:'.length);
    for (const extension of ['', '-wal']) if (existsSync(from + extension)) copyFileSync(from + extension, to + extension);
    return copy;
  }
  await copy.drop();
  await admin(`CREATE DATABASE ${new URL(copy.url).pathname.slice(1)} TEMPLATE ${new URL(source.url).pathname.slice(1)}`);
  return copy;
}

/**
 * The variables `npm start` sets before `node` (package.json's start script: glibc's allocator
 * settings, read only as a process starts), so that the bench measures the service as it is launched.
 */
export function startScriptEnv(packageJsonPath = new URL('../../package.json', import.meta.url)): Record<string, string> {
  const { scripts } = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { scripts: { start: string } };
  const assignments = /^((?:\w+=\S+\s+)*)node\s/.exec(scripts.start);
  if (!assignments) throw new Error(`package.json's start script is not "[NAME=value ...] node ...": ${scripts.start}`);
  return Object.fromEntries(
    (assignments[1] ?? '')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
}

/** The service's environment under the bench: as `npm start` launches it, in production, quiet logs, no rate limits. */
export function baseServiceEnv(port: number, databaseUrl: string): Record<string, string> {
  return {
    ...startScriptEnv(),
    NODE_ENV: 'production',
    WRS_DATABASE_URL: databaseUrl,
    WRS_JWT_SECRET: JWT_SECRET,
    WRS_ADMIN_TOKEN: ADMIN_TOKEN,
    WRS_ENCRYPTION_KEY: 'ab'.repeat(32),
    WRS_PUBLIC_URL: `http://127.0.0.1:${port}`,
    WRS_LOG_LEVEL: 'warn',
    WRS_RATE_LIMIT_PER_MINUTE: '0',
    WRS_RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '0',
    WRS_RATE_LIMIT_RECORD_TOKEN_PER_MINUTE: '0',
    // The stream scenario holds 1,000 connections from this one address.
    WRS_MAX_CONNECTIONS_PER_ADDRESS: '0',
    // The webhook scenarios deliver to a receiver on this machine.
    WRS_WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  };
}

/** KEY=VALUE entries of a repeatable option (`flag` names it in the error). */
export function parseServiceEnv(entries: string[], flag = '--service-env'): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of entries) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(entry);
    if (!match) throw new Error(`${flag} takes KEY=VALUE, not ${JSON.stringify(entry)}`);
    env[match[1]!] = match[2]!;
  }
  return env;
}

/**
 * Loads the plan's data set through `loader`, a service started for the load alone, and stops it:
 * the services then measured start on data they did not write, unwarmed by the load.
 */
export async function loadThenStop(loader: RunningProcess, plan: DataPlan): Promise<LoadedData> {
  try {
    return await loadDataSet({
      baseUrl: loader.baseUrl,
      adminToken: ADMIN_TOKEN,
      plan,
      eventsPerCompany: eventsPerCompany(plan),
      recordsPerCompany: recordsPerCompany(plan),
    });
  } finally {
    await loader.stop();
  }
}
