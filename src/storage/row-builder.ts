/** Makes one row object out of the row's values, in the order of its columns. */
export type RowBuilder = (values: unknown[]) => unknown;

/** One compiled builder per column list, shared by every statement that selects those columns. */
const buildersByColumns = new Map<string, RowBuilder>();

/**
 * Rows read as arrays (SQLite), made into objects by one compiled object literal per column
 * list. better-sqlite3 otherwise fills its row objects one property at a time from C++; objects
 * made by a literal are built about twice as fast and are the shape `JSON.stringify` is quickest
 * on. A later column of the same name wins, as in the driver's own objects.
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

/** Makes one row object out of the value of a statement's only column. */
export type OneColumnRowBuilder = (value: unknown) => unknown;

const oneColumnBuilders = new Map<string, OneColumnRowBuilder>();

/** rowBuilder for a statement of one column, read as plain values (no array per row). */
export function oneColumnRowBuilder(column: string): OneColumnRowBuilder {
  let build = oneColumnBuilders.get(column);
  if (!build) {
    build = new Function('value', `return { ${JSON.stringify(column)}: value };`) as OneColumnRowBuilder;
    oneColumnBuilders.set(column, build);
  }
  return build;
}
