import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { SqliteDatabase } from './sqlite-driver.js';
import { Kysely, PostgresDialect, sql, type CompiledQuery, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { databaseUnavailability, isBrokenConnection, type DatabaseUnavailability } from './database-errors.js';
import { ReadWriteSqliteDialect } from './sqlite-dialect.js';
import { cachingStatements } from './sqlite-statements.js';
import type { DB } from './schema.js';
import { postgresDriver } from './postgres-driver.js';
import { isCopyIn, runCopyIn } from './postgres-copy.js';
import type { ReadSnapshot } from './read-snapshot.js';
import { openPostgresSnapshot } from './postgres-snapshots.js';
import { createReadTimeouts, type ReadTimeouts } from './postgres-read-timeout.js';
import { createSqliteSnapshots, wholeQueryReads } from './sqlite-snapshots.js';

export type DialectName = 'sqlite' | 'postgres';

/** The connections of a database, at one moment. */
export interface PoolUsage {
  /** Connections serving a query or a transaction (PostgreSQL), or the writer and the snapshot readers busy (SQLite). */
  readonly inUse: number;
  /** Connections open and free. */
  readonly idle: number;
  /** Callers waiting for a connection (PostgreSQL) or for the one writer (SQLite). */
  readonly waiting: number;
  /** Connections the pool may open; null when not bounded (SQLite opens a snapshot reader per page read in chunks). */
  readonly max: number | null;
}

export interface Database {
  readonly db: Kysely<DB>;
  readonly dialect: DialectName;
  /** Throws when the database cannot answer a trivial query. */
  ping(): Promise<void>;
  /** Whether an error of this database says it cannot serve right now, rather than that the request is wrong. */
  unavailability(error: unknown): DatabaseUnavailability | null;
  /** Reads that see one committed state, on a connection of their own (read-snapshot.ts). */
  openSnapshot(): Promise<ReadSnapshot>;
  poolUsage(): PoolUsage;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL pool size. */
  poolSize?: number;
  /** Longest wait for a PostgreSQL connection (from the pool or a new one). */
  connectTimeoutMs?: number;
  /** PostgreSQL statement_timeout; the client gives up on a silent connection a little later. 0 = none. */
  statementTimeoutMs?: number;
  /** How long SQLite waits for another process's write lock before SQLITE_BUSY. */
  sqliteBusyTimeoutMs?: number;
}

/**
 * How a plain read (a SELECT outside any transaction) runs on a hot path, chosen where the
 * database is opened. On SQLite it runs in process on the read-only connection, without the
 * asynchronous steps by which Kysely hands a query a connection (they cost more than SQLite
 * answering a point read), and gathered with the other reads of the event loop's turn
 * (turnBatches, storage/sqlite-dialect.ts), so the requests of a turn go on one after the other
 * instead of each between other requests' network code. On PostgreSQL (and an in-memory SQLite
 * database, whose one connection is the writer's) it goes through Kysely as it comes: letting
 * callers go on in the batch of the turn their rows came in was measured and gained nothing
 * there, where a batch of record reads is already answered by one statement.
 */
export type GatheredRead = <R>(query: CompiledQuery<R>) => Promise<R[]>;

const gatheredReads = new WeakMap<Kysely<DB>, GatheredRead>();

/** The plain reads of `db`: as openDatabase opened it, else (a transaction, say) through Kysely. */
export function gatheredReadOf(db: Kysely<DB>): GatheredRead {
  return gatheredReads.get(db) ?? readsThroughKysely(db);
}

function readsThroughKysely(db: Kysely<DB>): GatheredRead {
  return async <R>(query: CompiledQuery<R>) => (await db.executeQuery(query)).rows;
}

/**
 * SQL texts of hot-path queries that PostgreSQL keeps as named prepared statements, one per
 * connection, prepared on first use: a repeated point read then skips parsing and planning on
 * the server. The name is derived from the text, so every pool and replica agrees on it.
 * (A transaction-mode pooler in front of PostgreSQL must support prepared statements, as
 * PgBouncer does from 1.21.) They live beside the client that names them (queryNamedWhenKept),
 * not with the compiled queries: precompiled-query.ts imports this file, and not the reverse.
 */
const preparedNames = new Map<string, string>();

export function keepPrepared(sqlText: string): void {
  if (!preparedNames.has(sqlText)) preparedNames.set(sqlText, `wrs_${createHash('sha256').update(sqlText).digest('hex').slice(0, 24)}`);
}

export function openDatabase(url: string, options: OpenDatabaseOptions = {}): Database {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length), options);
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return openPostgres(url, options);
  throw new Error(`unsupported database URL (use sqlite:<path> or postgres://...): ${url}`);
}

function openSqlite(path: string, options: OpenDatabaseOptions): Database {
  const inMemory = path === ':memory:' || path === '';
  if (!inMemory) mkdirSync(dirname(path), { recursive: true });
  const busyTimeoutMs = Math.trunc(options.sqliteBusyTimeoutMs ?? 5000);
  const writer = new SqliteDatabase(path);
  writer.pragma('journal_mode = WAL');
  // NORMAL under WAL keeps every committed transaction across a process crash; only an OS crash
  // may lose the last ones.
  writer.pragma('synchronous = NORMAL');
  writer.pragma(`busy_timeout = ${busyTimeoutMs}`);
  writer.pragma('foreign_keys = ON');
  let reader: SqliteDatabase | undefined;
  if (!inMemory) {
    reader = new SqliteDatabase(path, { readonly: true });
    reader.pragma(`busy_timeout = ${busyTimeoutMs}`);
  }
  const dialect = new ReadWriteSqliteDialect(cachingStatements(writer), reader && cachingStatements(reader));
  const db = new Kysely<DB>({ dialect });
  const otherReads = readsThroughKysely(db);
  gatheredReads.set(db, (query) => dialect.gatheredRead(query) ?? otherReads(query));
  const snapshots = inMemory ? undefined : createSqliteSnapshots(path, busyTimeoutMs);
  return {
    db,
    dialect: 'sqlite',
    unavailability: databaseUnavailability,
    async openSnapshot() {
      return snapshots ? snapshots.open() : wholeQueryReads(db as Kysely<unknown>);
    },
    poolUsage() {
      // The shared reader runs each query synchronously, so it is never seen busy: it counts as idle.
      const writerLock = dialect.writerUsage();
      const snapshotReaders = snapshots?.usage() ?? { inUse: 0, idle: 0 };
      const writerBusy = writerLock.held ? 1 : 0;
      return {
        inUse: writerBusy + snapshotReaders.inUse,
        idle: 1 - writerBusy + (reader ? 1 : 0) + snapshotReaders.idle,
        waiting: writerLock.waiting,
        max: null,
      };
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      snapshots?.close();
      await db.destroy();
    },
  };
}

function openPostgres(url: string, options: OpenDatabaseOptions): Database {
  const statementTimeoutMs = options.statementTimeoutMs ?? 60_000;
  // COUNT(*) and BIGINT come back from PostgreSQL as strings; every count here fits a double.
  postgresDriver.types.setTypeParser(postgresDriver.types.builtins.INT8, (value) => Number(value));
  postgresDriver.types.setTypeParser(postgresDriver.types.builtins.NUMERIC, (value) => Number(value));
  const pool = new postgresDriver.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
  });
  // The client gives up on a silent connection a little after the server would have cancelled the statement.
  const readTimeouts = statementTimeoutMs > 0 ? createReadTimeouts(statementTimeoutMs + Math.min(5000, statementTimeoutMs)) : undefined;
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: discardingBrokenClients(pool, readTimeouts) }) });
  gatheredReads.set(db, readsThroughKysely(db));
  return {
    db,
    dialect: 'postgres',
    unavailability: databaseUnavailability,
    openSnapshot: () => openPostgresSnapshot(pool, readTimeouts),
    poolUsage() {
      return {
        inUse: pool.totalCount - pool.idleCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        max: pool.options.max,
      };
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      readTimeouts?.stop();
      await db.destroy();
    },
  };
}

/**
 * Two gaps of `pg` when the database goes away:
 * - a checked-out client whose connection drops emits 'error', and the pool listens only on
 *   idle clients: without a listener here, that event would crash the process;
 * - after a client-side query timeout the client goes back to the pool with the unanswered
 *   query still blocking it.
 * A client that failed at the connection level is released with an error instead, so the
 * pool closes it and the next request opens a fresh connection. Every query also runs as a
 * named prepared statement when it is one; a COPY made by postgres-copy.ts streams its data.
 */
function discardingBrokenClients(pool: pg.Pool, readTimeouts: ReadTimeouts | undefined): PostgresPool {
  // One wrapper per connection, for its whole life: Kysely keeps its own connection object per
  // client it is given, so a new wrapper at every checkout would make it build another each time.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) wrappers.set(client, (wrapper = discardedWhenBroken(client, readTimeouts)));
      return wrapper;
    },
    end: () => pool.end(),
  };
}

function discardedWhenBroken(client: pg.PoolClient, readTimeouts: ReadTimeouts | undefined): PostgresPoolClient {
  let broken = false;
  client.on('error', () => {
    broken = true;
  });
  const query = ((...args: unknown[]) => {
    const [text, values] = args as [unknown, unknown[] | undefined];
    const result =
      typeof text !== 'string'
        ? (client.query as (...a: unknown[]) => unknown)(...args)
        : isCopy(text, values)
          ? runCopyIn(client, text, values[0])
          : queryNamedWhenKept(client, text, values);
    if (result instanceof Promise) {
      readTimeouts?.watch(client, result);
      result.catch((error: unknown) => {
        if (isBrokenConnection(error)) broken = true;
      });
    }
    return result;
  }) as PostgresPoolClient['query'];
  return {
    query,
    // pg-pool gives the client a new `release` at each checkout.
    release: () => client.release(broken ? new Error('discarding a broken database connection') : undefined),
  };
}

/**
 * A COPY made by copyIn (postgres-copy.ts). Its one Buffer parameter is tested here first, so
 * that the other queries, reads included, never call into that file.
 */
function isCopy(text: string, values: unknown[] | undefined): values is [Buffer] {
  return values?.length === 1 && Buffer.isBuffer(values[0]) && isCopyIn(text, values);
}

/** A kept statement (keepPrepared) by its name, which `pg` prepares once per connection. */
function queryNamedWhenKept(client: pg.PoolClient, text: string, values: unknown[] | undefined): Promise<pg.QueryResult> {
  const name = preparedNames.get(text);
  return client.query(name ? { text, values, name } : { text, values });
}
