import { createHash } from 'node:crypto';

/**
 * SQL texts of hot-path queries that PostgreSQL keeps as named prepared statements, one per
 * connection, prepared on first use: a repeated point read then skips parsing and planning on
 * the server. The name is derived from the text, so every pool and replica agrees on it.
 * (A transaction-mode pooler in front of PostgreSQL must support prepared statements, as
 * PgBouncer does from 1.21.)
 */
const names = new Map<string, string>();

export function keepPrepared(sqlText: string): void {
  if (!names.has(sqlText)) names.set(sqlText, `wrs_${createHash('sha256').update(sqlText).digest('hex').slice(0, 24)}`);
}

/** The statement name of a kept SQL text, or undefined for any other query. */
export function preparedNameOf(sqlText: string): string | undefined {
  return names.get(sqlText);
}
