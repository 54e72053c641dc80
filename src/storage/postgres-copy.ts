import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CompiledQuery } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { PostgresQueryResult } from './postgres-rows.js';

/**
 * `COPY ... FROM STDIN` through Kysely. Kysely has no way to reach the connection of a
 * transaction, so the statement travels as an ordinary query whose one parameter is the data
 * (COPY's text format), and the pool's client (database.ts) recognises it and streams the data
 * with pg-copy-streams on that same connection, inside the same transaction.
 */
export function copyIn(table: string, columns: readonly string[], rows: Iterable<readonly unknown[]>): CompiledQuery {
  return CompiledQuery.raw(`copy ${table} (${columns.join(', ')}) from stdin`, [copyText(rows)]);
}

const COPY_IN_TEXT = /^copy [a-z_]+ \([a-z_, ]+\) from stdin$/;

/** A statement made by copyIn: its text, and its data as the one parameter. */
export function isCopyIn(text: string, values: readonly unknown[] | undefined): values is [string] {
  return values?.length === 1 && typeof values[0] === 'string' && COPY_IN_TEXT.test(text);
}

export async function runCopyIn(client: pg.PoolClient, text: string, data: string): Promise<PostgresQueryResult> {
  const stream = client.query(copyFrom(text));
  await pipeline(Readable.from([data]), stream);
  return { command: 'COPY', rowCount: stream.rowCount, rows: [] };
}

const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const escape = (character: string) => ESCAPES[character]!;

/**
 * Rows in COPY's text format: tab between values, a newline after each row, `\N` for null,
 * `t`/`f` for booleans, numbers as JavaScript writes them (which PostgreSQL reads back to the
 * same double). Text holds no NUL (refused where it enters), and the four characters COPY gives a
 * meaning are escaped.
 */
export function copyText(rows: Iterable<readonly unknown[]>): string {
  let text = '';
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      if (i > 0) text += '\t';
      text += copyValue(row[i]);
    }
    text += '\n';
  }
  return text;
}

function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  const text = typeof value === 'string' ? value : String(value);
  return SPECIAL.test(text) ? text.replace(SPECIALS, escape) : text;
}
