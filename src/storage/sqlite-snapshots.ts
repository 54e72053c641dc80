import type { CompiledQuery, Kysely } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import type { ReadSnapshot, RowChunks } from './read-snapshot.js';
import { SqliteDatabase } from './sqlite-driver.js';
import { sqliteQueries } from './sqlite-query-channel.js';
import { rowBuilder } from './row-builder.js';
import { readAllRows } from './sqlite-statements.js';

/** Read-only connections kept open between snapshots; more are opened while more are in use. */
const IDLE_CONNECTIONS = 4;

/**
 * The page cache of a snapshot connection, in KiB (SQLite's own default). better-sqlite3 builds
 * SQLite with 16 MiB a connection, which each idle connection would keep filled; a snapshot reads
 * its long pages once, in order, where the operating system's file cache serves as well.
 */
const SNAPSHOT_PAGE_CACHE_KIB = 2000;

export interface SqliteSnapshots {
  open(): ReadSnapshot;
  /** Snapshot connections reading, and open ones kept for the next snapshot. */
  usage(): { inUse: number; idle: number };
  close(): void;
}

/**
 * SQLite snapshots on read-only connections of their own: a statement left open between chunks
 * keeps its connection busy and its read transaction (the WAL snapshot) alive, which the shared
 * reader of the dialect must never be.
 */
export function createSqliteSnapshots(path: string, busyTimeoutMs: number): SqliteSnapshots {
  const idle: BetterSqlite3.Database[] = [];
  let inUse = 0;
  let closed = false;
  const openConnection = (): BetterSqlite3.Database => {
    const connection = new SqliteDatabase(path, { readonly: true });
    connection.pragma(`busy_timeout = ${busyTimeoutMs}`);
    connection.pragma(`cache_size = -${SNAPSHOT_PAGE_CACHE_KIB}`);
    return connection;
  };
  const giveBack = (connection: BetterSqlite3.Database, reusable: boolean): void => {
    inUse -= 1;
    if (reusable && !closed && idle.length < IDLE_CONNECTIONS) idle.push(connection);
    else connection.close();
  };
  return {
    open() {
      const snapshot = sqliteSnapshot(idle.pop() ?? openConnection(), giveBack);
      inUse += 1;
      return snapshot;
    },
    usage: () => ({ inUse, idle: idle.length }),
    close() {
      closed = true;
      for (const connection of idle.splice(0)) connection.close();
    },
  };
}

function allRows<R>(connection: BetterSqlite3.Database, query: CompiledQuery): R[] {
  return readAllRows<R>(connection.prepare(query.sql), query.parameters);
}

function sqliteSnapshot(connection: BetterSqlite3.Database, giveBack: (connection: BetterSqlite3.Database, reusable: boolean) => void): ReadSnapshot {
  // Deferred: the read transaction (and its snapshot) starts at the first read.
  connection.exec('begin');
  let open: IterableIterator<unknown> | undefined;
  let released = false;
  return {
    async rows<R>(query: CompiledQuery<R>) {
      if (sqliteQueries.hasSubscribers) return sqliteQueries.traceSync(allRows<R>, { sql: query.sql }, undefined, connection, query);
      return allRows<R>(connection, query);
    },
    chunks<R>(query: CompiledQuery, chunkRows: number): RowChunks<R> {
      const statement = connection.prepare(query.sql).raw(true);
      const toRow = rowBuilder(statement.columns().map((column) => column.name)) as (values: unknown[]) => R;
      const rows = statement.iterate(...(query.parameters as unknown[])) as IterableIterator<unknown[]>;
      open = rows;
      return {
        async next() {
          const chunk: R[] = [];
          if (released) return chunk;
          for (let row = rows.next(); !row.done; row = rows.next()) {
            if (chunk.push(toRow(row.value)) === chunkRows) break;
          }
          return chunk;
        },
      };
    },
    async release() {
      if (released) return;
      released = true;
      open?.return?.();
      let committed = false;
      try {
        connection.exec('commit');
        committed = true;
      } catch {
        // A connection that cannot end its read transaction is not given out again.
      }
      giveBack(connection, committed);
    },
  };
}

/**
 * An in-memory database has one connection, which a held-open statement would block: each
 * query is read whole through it and handed out in chunks.
 */
export function wholeQueryReads(db: Kysely<unknown>): ReadSnapshot {
  return {
    async rows<R>(query: CompiledQuery<R>) {
      return (await db.executeQuery(query)).rows as R[];
    },
    chunks<R>(query: CompiledQuery, chunkRows: number): RowChunks<R> {
      let rows: Promise<R[]> | undefined;
      let start = 0;
      return {
        async next() {
          rows ??= db.executeQuery(query).then((result) => result.rows as R[]);
          const all = await rows;
          start += chunkRows;
          return all.slice(start - chunkRows, start);
        },
      };
    },
    async release() {},
  };
}
