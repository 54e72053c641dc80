// SQLite's prepared statements: kept by SQL text, and their rows read as objects.
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';
import { oneColumnRowBuilder, rowBuilder, type OneColumnRowBuilder, type RowBuilder } from './row-builder.js';

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

interface StatementRows {
  readonly width: number;
  readonly build: RowBuilder;
  /** Set for a statement of one column, read as plain values. */
  readonly buildOne: OneColumnRowBuilder | undefined;
}

const builderOfStatement = new WeakMap<BetterSqlite3.Statement, StatementRows>();

function builderOf(statement: BetterSqlite3.Statement): StatementRows {
  let known = builderOfStatement.get(statement);
  if (!known) {
    const columns = statement.columns().map((column) => column.name);
    known = { width: columns.length, build: rowBuilder(columns), buildOne: columns.length === 1 ? oneColumnRowBuilder(columns[0]!) : undefined };
    builderOfStatement.set(statement, known);
  }
  return known;
}

/**
 * Every row of a statement that returns data, as objects keyed by column name (read as arrays:
 * row-builder.ts; a statement of one column as plain values, an event page's JSON say).
 */
export function readAllRows<R>(statement: BetterSqlite3.Statement, parameters: readonly unknown[]): R[] {
  let known = builderOf(statement);
  if (known.buildOne) return readOneColumn(statement, parameters, known.buildOne);
  statement.raw(true);
  let values: unknown[][];
  try {
    values = statement.all(...parameters) as unknown[][];
  } finally {
    statement.raw(false);
  }
  // SQLite prepares a statement again after a schema change, and `select *` may then have other columns.
  if (values.length > 0 && values[0]!.length !== known.width) {
    builderOfStatement.delete(statement);
    known = builderOf(statement);
  }
  const rows = new Array<R>(values.length);
  for (let i = 0; i < values.length; i++) rows[i] = known.build(values[i]!) as R;
  return rows;
}

function readOneColumn<R>(statement: BetterSqlite3.Statement, parameters: readonly unknown[], build: OneColumnRowBuilder): R[] {
  statement.pluck(true);
  let values: unknown[];
  try {
    values = statement.all(...parameters);
  } finally {
    statement.pluck(false);
  }
  const rows = new Array<R>(values.length);
  for (let i = 0; i < values.length; i++) rows[i] = build(values[i]) as R;
  return rows;
}
