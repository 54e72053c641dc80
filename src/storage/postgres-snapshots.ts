import type { Readable } from 'node:stream';
import type { CompiledQuery } from 'kysely';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { isBrokenConnection } from './database-errors.js';
import type { ReadTimeouts } from './postgres-read-timeout.js';
import type { ReadSnapshot, RowChunks } from './read-snapshot.js';

const CURSOR = 'snapshot_rows';

/**
 * A PostgreSQL snapshot: a read-only REPEATABLE READ transaction on a pooled connection of its
 * own; chunks are FETCHed from a cursor (or the rows arrive by a binary COPY, `copyOut`), so the server keeps the rows not yet asked for (pg has
 * no cursor of its own without the pg-cursor package, and a DECLAREd cursor needs none).
 */
export async function openPostgresSnapshot(pool: pg.Pool, readTimeouts: ReadTimeouts | undefined): Promise<ReadSnapshot> {
  const client = await pool.connect();
  let broken = false;
  const onError = (): void => {
    broken = true;
  };
  client.on('error', onError);
  const query = async <R>(text: string, values?: readonly unknown[]): Promise<R[]> => {
    try {
      const answer = client.query(text, values as unknown[] | undefined) as Promise<pg.QueryResult | pg.QueryResult[]>;
      const result = await (readTimeouts ? readTimeouts.watch(client, answer) : answer);
      return (Array.isArray(result) ? result.at(-1)!.rows : result.rows) as R[];
    } catch (error) {
      if (isBrokenConnection(error)) broken = true;
      throw error;
    }
  };
  let released = false;
  // A COPY still sending when the snapshot ends: the connection is mid-protocol, so it is discarded.
  let copying: Readable | undefined;
  const release = async (): Promise<void> => {
    if (released) return;
    released = true;
    if (copying && !copying.readableEnded) {
      broken = true;
      copying.destroy();
    }
    try {
      if (!broken) await query('rollback');
    } catch {
      broken = true;
    } finally {
      client.removeListener('error', onError);
      client.release(broken ? new Error('discarding a broken database connection') : undefined);
    }
  };
  try {
    await query('begin isolation level repeatable read read only');
  } catch (error) {
    await release();
    throw error;
  }
  return {
    rows<R>(compiled: CompiledQuery<R>) {
      return query<R>(compiled.sql, compiled.parameters);
    },
    chunks<R>(compiled: CompiledQuery, chunkRows: number): RowChunks<R> {
      let declared = false;
      let done = false;
      return {
        async next() {
          if (done || released) return [];
          if (!declared) {
            await query(`declare ${CURSOR} no scroll cursor for ${compiled.sql}`, compiled.parameters);
            declared = true;
          }
          const rows = await query<R>(`fetch ${Math.trunc(chunkRows)} from ${CURSOR}`);
          if (rows.length < chunkRows) done = true;
          return rows;
        },
      };
    },
    copyOut(compiled: CompiledQuery) {
      if (copying || released) throw new Error('one COPY per snapshot, before it is released');
      const stream = client.query(copyTo(`copy (${withLiterals(client, compiled)}) to stdout (format binary)`));
      stream.on('error', (error) => {
        if (isBrokenConnection(error)) broken = true;
      });
      copying = stream;
      return stream;
    },
    release,
  };
}

/** The query's SQL with each `$n` replaced by its parameter as a literal: strings escaped by `pg`, finite numbers as written. */
function withLiterals(client: pg.PoolClient, { sql, parameters }: CompiledQuery): string {
  return sql.replace(/\$(\d+)/g, (_, index: string) => {
    const value = parameters[Number(index) - 1];
    if (typeof value === 'string') return client.escapeLiteral(value);
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    throw new Error(`a parameter of type ${typeof value} cannot be written into a COPY statement`);
  });
}
