import { PostgresAdapter, type Kysely } from 'kysely';

/** Which SQL dialect a Kysely instance speaks; migrations use it where the two databases differ. */
export function dialectOf(db: Kysely<any>): 'postgres' | 'sqlite' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
