import type BetterSqlite3 from 'better-sqlite3';
import { rowBuilder, type RowBuilder } from './row-builder.js';

const builderOfStatement = new WeakMap<BetterSqlite3.Statement, { readonly width: number; readonly build: RowBuilder }>();

function builderOf(statement: BetterSqlite3.Statement): { readonly width: number; readonly build: RowBuilder } {
  let known = builderOfStatement.get(statement);
  if (!known) {
    const columns = statement.columns().map((column) => column.name);
    known = { width: columns.length, build: rowBuilder(columns) };
    builderOfStatement.set(statement, known);
  }
  return known;
}

/** Every row of a statement that returns data, as objects keyed by column name (read as arrays: row-builder.ts). */
export function readAllRows<R>(statement: BetterSqlite3.Statement, parameters: readonly unknown[]): R[] {
  let { width, build } = builderOf(statement);
  statement.raw(true);
  let values: unknown[][];
  try {
    values = statement.all(...parameters) as unknown[][];
  } finally {
    statement.raw(false);
  }
  // SQLite prepares a statement again after a schema change, and `select *` may then have other columns.
  if (values.length > 0 && values[0]!.length !== width) {
    builderOfStatement.delete(statement);
    ({ width, build } = builderOf(statement));
  }
  const rows = new Array<R>(values.length);
  for (let i = 0; i < values.length; i++) rows[i] = build(values[i]!) as R;
  return rows;
}
