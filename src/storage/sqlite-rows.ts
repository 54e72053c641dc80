import type BetterSqlite3 from 'better-sqlite3';
import { oneColumnRowBuilder, rowBuilder, type OneColumnRowBuilder, type RowBuilder } from './row-builder.js';

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
