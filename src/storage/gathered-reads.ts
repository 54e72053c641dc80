import type { CompiledQuery, Kysely } from 'kysely';
import type { DB } from './schema.js';

/**
 * Runs a plain read (a SELECT outside any transaction) in process where the database can:
 * SQLite's read-only connection, gathered with the other reads of the event loop's turn
 * (lib/turn-batches.ts). Kysely hands every query a connection through several asynchronous
 * steps, which on a point read cost more than SQLite answering it. Gives undefined where the
 * read must go the usual way (PostgreSQL, an in-memory SQLite database).
 */
export type GatheredRead = <R>(query: CompiledQuery<R>) => Promise<R[]> | undefined;

const readersOf = new WeakMap<Kysely<DB>, GatheredRead>();

/** Called where a database is opened: its plain reads may be gathered. */
export function allowGatheredReads(db: Kysely<DB>, read: GatheredRead): void {
  readersOf.set(db, read);
}

export function gatheredReadOf(db: Kysely<DB>): GatheredRead | undefined {
  return readersOf.get(db);
}
