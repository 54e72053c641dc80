import { tracingChannel } from 'node:diagnostics_channel';

/** What a listener learns of one SQLite statement; a listener may keep its own fields on it. */
export interface SqliteQueryMessage {
  readonly sql: string;
}

export const SQLITE_QUERY_CHANNEL = 'wrs:sqlite:query';

/**
 * Every statement the SQLite adapter runs, as a Node tracing channel (start, end, error), so
 * tracing can make a span of each without storage knowing of OpenTelemetry. With nobody
 * listening (tracing off), a statement costs one boolean check more.
 */
export const sqliteQueries = tracingChannel<unknown, SqliteQueryMessage>(SQLITE_QUERY_CHANNEL);
