import type { CompiledQuery, Kysely } from 'kysely';
import type { DB } from './schema.js';

/**
 * How a plain read (a SELECT outside any transaction) runs on a hot path, chosen where the
 * database is opened (database.ts). On SQLite it runs in process on the read-only connection,
 * without the asynchronous steps by which Kysely hands a query a connection (they cost more
 * than SQLite answering a point read), and gathered with the other reads of the event loop's
 * turn (lib/turn-batches.ts), so the requests of a turn go on one after the other instead of
 * each between other requests' network code. On PostgreSQL (and an in-memory SQLite database,
 * whose one connection is the writer's) it goes through Kysely as it comes: letting callers go
 * on in the batch of the turn their rows came in was measured and gained nothing there, where
 * a batch of record reads is already answered by one statement.
 */
export type GatheredRead = <R>(query: CompiledQuery<R>) => Promise<R[]>;

const readersOf = new WeakMap<Kysely<DB>, GatheredRead>();

/** Called where a database is opened whose reads may be gathered. */
export function allowGatheredReads(db: Kysely<DB>, read: GatheredRead): void {
  readersOf.set(db, read);
}

/** Reads through Kysely as they come. */
export function readsThroughKysely(db: Kysely<DB>): GatheredRead {
  return async <R>(query: CompiledQuery<R>) => (await db.executeQuery(query)).rows;
}

/** The plain reads of `db`: as it was opened with, else through Kysely. */
export function gatheredReadOf(db: Kysely<DB>): GatheredRead {
  return readersOf.get(db) ?? readsThroughKysely(db);
}
