import { PostgresAdapter, type Kysely } from 'kysely';
import type { DialectName } from './database.js';

/** Which SQL dialect a Kysely instance speaks; migrations use it where the two databases differ. */
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
