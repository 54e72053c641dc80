import type { CompiledQuery } from 'kysely';

/** Rows of one query read a chunk at a time, as the caller asks for them. */
export interface RowChunks<R> {
  /** Up to the chunk size of the next rows; empty once every row has been read. */
  next(): Promise<R[]>;
}

/**
 * Reads that all see one committed state of the database, on a connection of their own, so a
 * large answer can be read a chunk at a time while other requests (and writes) go on: a count
 * and the rows it counts always agree.
 */
export interface ReadSnapshot {
  rows<R>(query: CompiledQuery<R>): Promise<R[]>;
  /** One open query per snapshot at a time. */
  chunks<R>(query: CompiledQuery, chunkRows: number): RowChunks<R>;
  /**
   * PostgreSQL only: the query's rows as `COPY (query) TO STDOUT (FORMAT binary)` sends them,
   * its parameters written into the SQL as literals (COPY takes none). Instead of `chunks`.
   */
  readonly copyOut?: (query: CompiledQuery) => AsyncIterable<Buffer>;
  /** Ends the snapshot and gives its connection back; safe to call more than once. */
  release(): Promise<void>;
}
