import { PostgresAdapter, type Kysely } from 'kysely';
import type { DialectName } from './database.js';

/** Which SQL dialect a Kysely instance speaks; migrations use it where the two databases differ. */
// biome-ignore lint/suspicious/noExplicitAny: migrations call it with Kysely<any> (they must not depend on today's schema)
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
