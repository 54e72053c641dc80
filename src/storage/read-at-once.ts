import type { CompiledQuery, Kysely } from 'kysely';
import type { DB } from './schema.js';

/**
 * Runs a plain read (a SELECT outside any transaction) at once and in process where the
 * database can: SQLite's read-only connection. Kysely hands every query a connection through
 * several asynchronous steps, which on a point read cost more than SQLite answering it. Gives
 * undefined where the read must go the usual way (PostgreSQL, an in-memory SQLite database).
 */
export type ReadAtOnce = <R>(query: CompiledQuery<R>) => R[] | undefined;

const readersOf = new WeakMap<Kysely<DB>, ReadAtOnce>();

/** Called where a database is opened: its plain reads may run at once. */
export function allowReadsAtOnce(db: Kysely<DB>, read: ReadAtOnce): void {
  readersOf.set(db, read);
}

export function readAtOnceOf(db: Kysely<DB>): ReadAtOnce | undefined {
  return readersOf.get(db);
}
