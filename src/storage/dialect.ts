import { PostgresAdapter, type Kysely } from 'kysely';
import type { DialectName } from './database.js';
import type { DB } from './schema.js';

/** Which SQL dialect a Kysely instance speaks; repositories use it where the two databases differ (migrations keep their own copy, in migrations/frozen/). */
export function dialectOf(db: Kysely<DB>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
