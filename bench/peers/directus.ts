import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { DbKind } from '../lib/bench-service.js';
import { freePort, startProcess, type RunningProcess } from '../lib/processes.js';

/** The peer: pinned, installed from npm into a folder of its own for each comparison. */
export const DIRECTUS_VERSION = '11.3.5';
export const DIRECTUS_TOKEN = 'peer-admin-static-token-0123456789';

/** npm's own variables of an outer `npm run` would point the install at the project. */
function npmFreeEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
}

/** Installs Directus into `dir`, never into the project's node_modules (its native modules build from source here). */
export function installDirectus(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ private: true, dependencies: { directus: DIRECTUS_VERSION } }, null, 2)}\n`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'], env: npmFreeEnv() });
}

export interface DirectusInstance {
  readonly process: RunningProcess;
  stop(): Promise<void>;
}

/** Its environment: the database, keys, the admin user with a static token; telemetry off, caches and rate limits at their default (off). */
function directusEnv(installDir: string, dataDir: string, dbKind: DbKind, databaseUrl: string, port: number): Record<string, string> {
  const database: Record<string, string> =
    dbKind === 'sqlite' ? { DB_CLIENT: 'sqlite3', DB_FILENAME: databaseUrl.replace(/^sqlite:/, '') } : { DB_CLIENT: 'pg', DB_CONNECTION_STRING: databaseUrl };
  return {
    ...database,
    NODE_ENV: 'production',
    KEY: randomBytes(16).toString('hex'),
    SECRET: randomBytes(32).toString('hex'),
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: randomBytes(12).toString('hex'),
    ADMIN_TOKEN: DIRECTUS_TOKEN,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    TELEMETRY: 'false',
    CACHE_ENABLED: 'false',
    RATE_LIMITER_ENABLED: 'false',
    // Its load shedding (on by default) answers 503 once its event loop lags: every request is to be answered, as wrs answers them.
    PRESSURE_LIMITER_ENABLED: 'false',
    EXTENSIONS_PATH: join(dataDir, 'extensions'),
    STORAGE_LOCAL_ROOT: join(dataDir, 'uploads'),
    // The CLI looks for a .env in its working folder; there is none, everything is given here.
    CONFIG_PATH: join(installDir, 'no-such.env'),
  };
}

/** Bootstraps Directus on an empty database (its system tables, the admin user and token) and starts it. */
export async function startDirectus(installDir: string, dataDir: string, dbKind: DbKind, databaseUrl: string): Promise<DirectusInstance> {
  mkdirSync(join(dataDir, 'extensions'), { recursive: true });
  mkdirSync(join(dataDir, 'uploads'), { recursive: true });
  const port = await freePort();
  const env = directusEnv(installDir, dataDir, dbKind, databaseUrl, port);
  // Its API package's CLI: `directus`'s own first asks the npm registry for a newer version.
  const cli = join(installDir, 'node_modules/@directus/api/dist/cli/run.js');
  execFileSync(process.execPath, [cli, 'bootstrap'], { cwd: dataDir, env: { ...npmFreeEnv(), ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  const running = await startProcess([cli, 'start'], env, port, '/server/ping');
  return { process: running, stop: () => running.stop() };
}

type FieldType = 'string' | 'text' | 'integer' | 'float' | 'boolean' | 'timestamp' | 'json';
interface FieldPlan {
  field: string;
  type: FieldType;
  /** An index, as its data model screen offers one per field. */
  indexed?: boolean;
}

const EVENT_FIELDS: FieldPlan[] = [
  { field: 'company_id', type: 'string', indexed: true },
  { field: 'type', type: 'string' },
  { field: 'created_at', type: 'timestamp', indexed: true },
  { field: 'updated_at', type: 'timestamp' },
  { field: 'excluded', type: 'boolean' },
  { field: 'connection_id', type: 'string' },
  { field: 'connection_key', type: 'string' },
  { field: 'flow_id', type: 'string' },
  { field: 'flow_key', type: 'string', indexed: true },
  { field: 'flow_session', type: 'integer', indexed: true },
  { field: 'like_value', type: 'integer' },
  { field: 'seconds_active', type: 'float' },
  { field: 'seconds_running', type: 'float' },
  { field: 'selected_decision', type: 'string' },
  { field: 'step_key', type: 'string' },
  { field: 'text', type: 'text' },
  { field: 'user_id', type: 'string' },
  { field: 'version_id', type: 'string' },
  { field: 'version_key', type: 'string' },
];

const RECORD_FIELDS: FieldPlan[] = [
  { field: 'company_id', type: 'string', indexed: true },
  { field: 'record_type', type: 'string' },
  { field: 'uid', type: 'string' },
  { field: 'status', type: 'string' },
  { field: 'fields', type: 'json' },
  { field: 'parent_record', type: 'string' },
  { field: 'child_records', type: 'json' },
  { field: 'linked', type: 'json' },
  { field: 'views', type: 'json' },
  { field: 'created_at', type: 'timestamp' },
  { field: 'updated_at', type: 'timestamp' },
];

export const PEER_COLLECTIONS = { events: EVENT_FIELDS, records: RECORD_FIELDS } as const;
export type PeerCollection = keyof typeof PEER_COLLECTIONS;

async function directusRequest(baseUrl: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${DIRECTUS_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`Directus ${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : null;
}

/**
 * Each collection made through Directus's own REST API, as a team would through its data model
 * screen: a string primary key (the events' and records' own ids), one column per field, an index
 * on the fields the queries filter and sort by, and no activity or revision kept per item.
 */
export async function defineCollections(baseUrl: string): Promise<void> {
  for (const [collection, fields] of Object.entries(PEER_COLLECTIONS)) {
    await directusRequest(baseUrl, 'POST', '/collections', {
      collection,
      meta: { accountability: null },
      schema: {},
      fields: [
        { field: 'id', type: 'string', meta: { hidden: false }, schema: { is_primary_key: true, has_auto_increment: false, length: 64 } },
        ...fields.map(({ field, type, indexed }) => ({ field, type, meta: {}, schema: { is_nullable: true, ...(indexed ? { is_indexed: true } : {}) } })),
      ],
    });
  }
}

/** How many items of `collection` Directus itself sees for a company: the load is checked through its API. */
export async function countThroughDirectus(baseUrl: string, collection: PeerCollection, company: string): Promise<number> {
  const query = new URLSearchParams({ 'aggregate[count]': '*', 'filter[company_id][_eq]': company });
  const body = await directusRequest(baseUrl, 'GET', `/items/${collection}?${query}`);
  return Number(body.data[0].count);
}

/**
 * Writes the items straight into the collection's table, as Directus would store them (on SQLite
 * a timestamp is epoch milliseconds, a boolean 0 or 1; JSON as text), in large transactions:
 * its REST API creates items one statement at a time. Then ANALYZE, so its planner has statistics.
 */
export async function insertItems(
  dbKind: DbKind,
  databaseUrl: string,
  collection: PeerCollection,
  items: Iterable<{ company: string; item: Record<string, unknown> }>,
): Promise<number> {
  const fields = PEER_COLLECTIONS[collection];
  const columns = ['id', ...fields.map((f) => f.field)];
  const types = new Map(fields.map((f) => [f.field, f.type]));
  const value = (column: string, company: string, item: Record<string, unknown>): unknown => {
    if (column === 'company_id') return company;
    const v = item[column] ?? null;
    if (v === null) return null;
    switch (types.get(column)) {
      case 'json':
        return JSON.stringify(v);
      case 'timestamp':
        return dbKind === 'sqlite' ? Date.parse(v as string) : v;
      case 'boolean':
        return dbKind === 'sqlite' ? (v ? 1 : 0) : v;
      default:
        return v;
    }
  };
  let count = 0;
  if (dbKind === 'sqlite') {
    const db = new Database(databaseUrl.replace(/^sqlite:/, ''));
    try {
      db.pragma('busy_timeout = 10000');
      const insert = db.prepare(`INSERT INTO "${collection}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
      let batch: unknown[][] = [];
      const flush = db.transaction((rows: unknown[][]) => {
        for (const row of rows) insert.run(row);
      });
      for (const { company, item } of items) {
        batch.push(columns.map((c) => value(c, company, item)));
        if (batch.length === 20_000) {
          flush(batch);
          count += batch.length;
          batch = [];
        }
      }
      flush(batch);
      count += batch.length;
      db.exec('ANALYZE');
    } finally {
      db.close();
    }
    return count;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const rowsPerStatement = Math.floor(30_000 / columns.length);
    let batch: unknown[][] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const placeholders = batch.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`);
      await client.query(`INSERT INTO "${collection}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${placeholders.join(', ')}`, batch.flat());
      count += batch.length;
      batch = [];
    };
    for (const { company, item } of items) {
      batch.push(columns.map((c) => value(c, company, item)));
      if (batch.length === rowsPerStatement) await flush();
    }
    await flush();
    await client.query(`ANALYZE "${collection}"`);
  } finally {
    await client.end();
  }
  return count;
}
