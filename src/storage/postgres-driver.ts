import type Pg from 'pg';
import { loadedOnFirstUse } from '../lib/loaded-on-first-use.js';

/** `pg`, loaded at the first PostgreSQL connection: an SQLite deployment never loads it. */
export const postgresDriver = loadedOnFirstUse<typeof Pg>('pg', (pg) => {
  // COUNT(*) and BIGINT come back from PostgreSQL as strings; every count here fits a double.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
  pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));
});
