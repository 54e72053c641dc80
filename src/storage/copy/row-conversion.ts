import { CopyRefusal } from './copy-refusal.js';
import type { SourceRow, SourceTable } from './sqlite-source.js';

/**
 * Columns only PostgreSQL has, and the value copied rows take there. An event's feed position
 * is (xid, seq), and SQLite's is (0, seq): copied events keep xid 0 and their SQLite seq, so
 * every cursor a client holds stays valid across the move, and every event written afterwards
 * (a real, larger transaction id) follows them in the feed.
 */
const POSTGRES_ONLY_COLUMNS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  events: { feed_xid: '0' },
};

export type RowConverter = (row: SourceRow) => Record<string, unknown>;

/**
 * How a source row becomes a target row: integer 0/1 becomes a boolean where PostgreSQL has a
 * boolean column; everything else is stored as it is (JSON and timestamps are text on both,
 * blobs come as Buffers, which `pg` sends as bytea). Refuses tables whose columns differ.
 */
export function rowConverter(table: SourceTable, targetTypes: ReadonlyMap<string, string>): RowConverter {
  const extra = POSTGRES_ONLY_COLUMNS[table.name] ?? {};
  const missing = table.columns.filter((column) => !targetTypes.has(column));
  const unfilled = [...targetTypes.keys()].filter((column) => !table.columns.includes(column) && !(column in extra));
  if (missing.length > 0 || unfilled.length > 0) {
    throw new CopyRefusal(
      `table ${table.name} differs between the databases (only in SQLite: ${missing.join(', ') || 'none'}; ` +
        `only in PostgreSQL: ${unfilled.join(', ') || 'none'})`,
    );
  }
  const booleans = table.columns.filter((column) => targetTypes.get(column) === 'boolean');
  return (row) => {
    const converted: Record<string, unknown> = { ...row, ...extra };
    for (const column of booleans) {
      const value = converted[column];
      if (value !== null) converted[column] = value !== 0;
    }
    return converted;
  };
}
