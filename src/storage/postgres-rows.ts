import type pg from 'pg';
import { rowBuilder, type RowBuilder } from './row-builder.js';
import type { PostgresQueryResult } from './postgres-query-result.js';

/**
 * Runs a query with its rows read as arrays and made into objects by a compiled literal
 * (row-builder.ts); a named prepared statement (prepared-statements.ts) when `name` is given,
 * which `pg` prepares once per connection. Several statements in one text answer one result
 * each, as `pg` gives them.
 */
export async function queryRows(
  client: pg.PoolClient,
  text: string,
  values: unknown[] | undefined,
  name: string | undefined,
): Promise<PostgresQueryResult | PostgresQueryResult[]> {
  const result = (await client.query({ text, values, rowMode: 'array', ...(name ? { name } : {}) })) as pg.QueryResult | pg.QueryResult[];
  return Array.isArray(result) ? result.map((one) => withObjectRows(text, one)) : withObjectRows(text, result);
}

const MAX_KNOWN_TEXTS = 1000;

/** The columns each query text answered last time, and their builder: finding the builder by its column list costs more than a point read's row. */
const builderOfText = new Map<string, { readonly columns: readonly string[]; readonly build: RowBuilder }>();

function builderFor(text: string, fields: readonly pg.FieldDef[]): RowBuilder {
  const known = builderOfText.get(text);
  if (known && sameColumns(known.columns, fields)) return known.build;
  const columns = fields.map((field) => field.name);
  const build = rowBuilder(columns);
  if (!known && builderOfText.size >= MAX_KNOWN_TEXTS) builderOfText.delete(builderOfText.keys().next().value!);
  builderOfText.set(text, { columns, build });
  return build;
}

/** A text may answer other columns after a schema change (`select *`), or per statement of several. */
function sameColumns(columns: readonly string[], fields: readonly pg.FieldDef[]): boolean {
  if (columns.length !== fields.length) return false;
  for (let i = 0; i < columns.length; i++) if (columns[i] !== fields[i]!.name) return false;
  return true;
}

function withObjectRows(text: string, result: pg.QueryResult): PostgresQueryResult {
  const rows = result.rows as unknown[][];
  if (rows.length === 0 || result.fields.length === 0) return result;
  const build = builderFor(text, result.fields);
  const objects = new Array<unknown>(rows.length);
  for (let i = 0; i < rows.length; i++) objects[i] = build(rows[i]!);
  return { command: result.command, rowCount: result.rowCount, rows: objects };
}
