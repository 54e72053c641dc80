import { createRequire } from 'node:module';
import type Pg from 'pg';

/** `pg`, required (not imported): the tracing's instrumentation patches it as CommonJS loads it. */
export const postgresDriver = createRequire(import.meta.url)('pg') as typeof Pg;
// COUNT(*) and BIGINT come back from PostgreSQL as strings; every count here fits a double.
postgresDriver.types.setTypeParser(postgresDriver.types.builtins.INT8, (value) => Number(value));
postgresDriver.types.setTypeParser(postgresDriver.types.builtins.NUMERIC, (value) => Number(value));
