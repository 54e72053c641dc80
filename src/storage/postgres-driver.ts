import { createRequire } from 'node:module';
import type Pg from 'pg';

/** `pg`, required (not imported): the tracing's instrumentation patches it as CommonJS loads it. */
export const postgresDriver = createRequire(import.meta.url)('pg') as typeof Pg;
