import type BetterSqlite3 from 'better-sqlite3';

type RowBuilder = (values: unknown[]) => unknown;

/** One compiled builder per column list, shared by every statement that selects those columns. */
const buildersByColumns = new Map<string, RowBuilder>();
const builderOfStatement = new WeakMap<BetterSqlite3.Statement, { readonly width: number; readonly build: RowBuilder }>();

/**
 * Rows as arrays, made into objects by one compiled object literal per column list. The
 * driver fills its own row objects one property at a time from C++; objects made by a literal
 * are built about twice as fast and are the shape `JSON.stringify` is quickest on. A later
 * column of the same name wins, as in the driver's own objects.
 */
export function rowBuilder(columns: readonly string[]): RowBuilder {
  const key = JSON.stringify(columns);
  let build = buildersByColumns.get(key);
  if (!build) {
    const fields = columns.map((column, i) => `${JSON.stringify(column)}: values[${i}]`).join(', ');
    build = new Function('values', `return { ${fields} };`) as RowBuilder;
    buildersByColumns.set(key, build);
  }
  return build;
}

function builderOf(statement: BetterSqlite3.Statement): { readonly width: number; readonly build: RowBuilder } {
  let known = builderOfStatement.get(statement);
  if (!known) {
    const columns = statement.columns().map((column) => column.name);
    known = { width: columns.length, build: rowBuilder(columns) };
    builderOfStatement.set(statement, known);
  }
  return known;
}

/** Every row of a statement that returns data, as objects keyed by column name. */
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
