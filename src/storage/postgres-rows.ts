import type pg from 'pg';
import { rowBuilder } from './row-builder.js';

/** What Kysely's PostgreSQL connection reads of a query's result. */
export interface PostgresQueryResult {
  readonly command: string;
  readonly rowCount: number | null;
  readonly rows: unknown[];
}

/**
 * Runs a query with its rows read as arrays and made into objects by a compiled literal
 * (row-builder.ts), named when `name` is given (prepared-statements.ts). Several statements
 * in one text answer one result each, as `pg` gives them.
 */
export async function queryRows(
  client: pg.PoolClient,
  text: string,
  values: unknown[] | undefined,
  name: string | undefined,
): Promise<PostgresQueryResult | PostgresQueryResult[]> {
  const result = (await client.query({ text, values, rowMode: 'array', ...(name ? { name } : {}) })) as pg.QueryResult | pg.QueryResult[];
  return Array.isArray(result) ? result.map(withObjectRows) : withObjectRows(result);
}

function withObjectRows(result: pg.QueryResult): PostgresQueryResult {
  const rows = result.rows as unknown[][];
  if (rows.length === 0 || result.fields.length === 0) return result;
  const build = rowBuilder(result.fields.map((field) => field.name));
  const objects = new Array<unknown>(rows.length);
  for (let i = 0; i < rows.length; i++) objects[i] = build(rows[i]!);
  return { command: result.command, rowCount: result.rowCount, rows: objects };
}
