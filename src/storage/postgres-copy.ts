import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CompiledQuery } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { PostgresQueryResult } from './postgres-query-result.js';

/**
 * `COPY ... FROM STDIN` through Kysely. Kysely has no way to reach the connection of a
 * transaction, so the statement travels as an ordinary query whose one parameter is the data
 * (COPY's text format, as bytes), and the pool's client (database.ts) recognises it and streams
 * the data with pg-copy-streams on that same connection, inside the same transaction.
 */
export function copyIn(table: string, columns: readonly string[], data: Buffer): CompiledQuery {
  return CompiledQuery.raw(`copy ${table} (${columns.join(', ')}) from stdin`, [data]);
}

const COPY_IN_TEXT = /^copy [a-z_]+ \([a-z_, ]+\) from stdin$/;

/** A statement made by copyIn: its text, and its data as the one parameter. */
export function isCopyIn(text: string, values: readonly unknown[] | undefined): values is [Buffer] {
  return values?.length === 1 && Buffer.isBuffer(values[0]) && COPY_IN_TEXT.test(text);
}

export async function runCopyIn(client: pg.PoolClient, text: string, data: Buffer): Promise<PostgresQueryResult> {
  const stream = client.query(copyFrom(text));
  await pipeline(Readable.from([data]), stream);
  return { command: 'COPY', rowCount: stream.rowCount, rows: [] };
}

const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const escapeCharacter = (character: string) => ESCAPES[character]!;
/** UTF-8 takes at most three bytes for each UTF-16 code unit. */
const MAX_BYTES_PER_UNIT = 3;

/**
 * Rows in COPY's text format, written straight into one buffer: tab between values, a newline
 * after each row, `\N` for null, `t`/`f` for booleans, numbers as JavaScript writes them (which
 * PostgreSQL reads back to the same double). Text holds no NUL (refused where it enters), and
 * the four characters COPY gives a meaning are escaped. Each row is encoded by one write: one
 * string for the whole batch encoded afterwards is slower (V8 flattens a string of megabytes,
 * then copies it), and so is one write per value.
 */
export class CopyData {
  private bytes: Buffer;
  private at = 0;

  /** `expectedBytes`: a good guess saves growing (copying) the buffer as rows are added. */
  constructor(expectedBytes = 1 << 16) {
    this.bytes = Buffer.allocUnsafeSlow(expectedBytes);
  }

  addRow(row: readonly unknown[]): void {
    let line = copyValue(row[0]);
    for (let i = 1; i < row.length; i++) line += `\t${copyValue(row[i])}`;
    line += '\n';
    const room = line.length * MAX_BYTES_PER_UNIT;
    if (this.at + room > this.bytes.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(this.bytes.length * 2, this.at + room));
      this.bytes.copy(grown, 0, 0, this.at);
      this.bytes = grown;
    }
    this.at += this.bytes.write(line, this.at);
  }

  /**
   * The rows added so far. A batch is held from when it is encoded until it is written, so it
   * keeps little more than its own bytes, not the room left over from growing.
   */
  toBuffer(): Buffer {
    if (this.at >= this.bytes.length * 0.9) return this.bytes.subarray(0, this.at);
    const exact = Buffer.allocUnsafeSlow(this.at);
    this.bytes.copy(exact, 0, 0, this.at);
    return exact;
  }
}

function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  const text = typeof value === 'string' ? value : String(value);
  return SPECIAL.test(text) ? text.replace(SPECIALS, escapeCharacter) : text;
}
