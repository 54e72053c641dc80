import type { EventJson, StoredEvent } from '../../domain/events/event.js';
import type { Exact } from '../../lib/type-checks.js';

/**
 * Tables of workflow events. `version_object` is JSON text: NULL when the event has no
 * version_object, the text `null` when it was given as null. `excluded` is 0/1 on SQLite and
 * a boolean on PostgreSQL.
 */
export interface EventColumns extends Omit<StoredEvent, 'excluded'> {
  excluded: boolean | number;
}

/**
 * The change-feed position (migration 0008): `feed_seq` on both databases, `feed_xid` (xid8,
 * read as text) on PostgreSQL only.
 */
export interface EventFeedColumns {
  feed_seq: number;
  feed_xid: string;
}

/** The event's JSON as the API shows it, written with the event (migration 0010): what pages read. */
export interface EventBodyColumn {
  body: EventJson;
}

export interface EventsTable extends EventColumns, EventFeedColumns, EventBodyColumn {}

/** Rows of `events` as the domain's events: `excluded` made a boolean, in place. */
export function storedEvents(rows: EventColumns[]): StoredEvent[] {
  for (const row of rows) row.excluded = row.excluded === true || row.excluded === 1;
  return rows as StoredEvent[];
}

/** What a page selects of each event: its JSON, and the columns that order the page. */
export type EventPageRow = Pick<EventsTable, 'body' | 'id'> & Partial<EventColumns>;

export function eventBodies(rows: readonly Pick<EventsTable, 'body'>[]): EventJson[] {
  const bodies: EventJson[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) bodies[i] = rows[i]!.body;
  return bodies;
}

/** The event's own columns of `events`, in the migration's order: what an ingest writes beside the JSON. */
export const EVENT_COLUMNS = [
  'company_id',
  'id',
  'connection_id',
  'connection_key',
  'created_at',
  'excluded',
  'flow_id',
  'flow_key',
  'flow_session',
  'like_value',
  'seconds_active',
  'seconds_running',
  'selected_decision',
  'step_key',
  'text',
  'type',
  'updated_at',
  'user_id',
  'version_id',
  'version_key',
  'version_object',
] as const satisfies readonly (keyof EventColumns)[];
true satisfies Exact<(typeof EVENT_COLUMNS)[number], keyof EventColumns>;

/**
 * The distinct values each company has stored in the event keys that take `__contains`
 * (connection_key, flow_key, step_key, version_key). A substring search runs on this small
 * table through a trigram index, then finds the events by the key's B-tree index.
 */
export interface EventKeyValuesTable {
  company_id: string;
  field: string;
  value: string;
}

export interface EventsTables {
  events: EventsTable;
  event_key_values: EventKeyValuesTable;
}
