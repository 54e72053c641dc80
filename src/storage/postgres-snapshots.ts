import type { CompiledQuery } from 'kysely';
import type pg from 'pg';
import { isBrokenConnection } from './database-errors.js';
import type { ReadTimeouts } from './postgres-read-timeout.js';
import type { ReadSnapshot, RowChunks } from './read-snapshot.js';

const CURSOR = 'snapshot_rows';

/**
 * A PostgreSQL snapshot: a read-only REPEATABLE READ transaction on a pooled connection of its
 * own; chunks are FETCHed from a cursor, so the server keeps the rows not yet asked for (pg has
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
  const release = async (): Promise<void> => {
    if (released) return;
    released = true;
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
    release,
  };
}
