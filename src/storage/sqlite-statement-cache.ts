import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

const MAX_CACHED_STATEMENTS = 500;

/** Kysely's view of a SQLite connection, with the driver's own statements (raw rows, columns). */
export interface CachedStatements extends SqliteDatabase {
  prepare(sql: string): BetterSqlite3.Statement;
}

/**
 * Kysely's SQLite driver prepares every query anew, and preparing costs more than running a
 * point lookup. This keeps prepared statements by SQL text (least recently used out first).
 * A statement still busy (an open iterator of a streamed query) is not handed out twice: the
 * caller gets a fresh one instead.
 */
export function cachingStatements(connection: BetterSqlite3.Database): CachedStatements {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => {
      statements.clear();
      connection.close();
    },
    prepare(sql: string): BetterSqlite3.Statement {
      const cached = statements.get(sql);
      if (cached) {
        if (cached.busy) return connection.prepare(sql);
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = connection.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > MAX_CACHED_STATEMENTS) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}
