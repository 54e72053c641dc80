/**
 * The event serialiser as it was when migration 0010 was written (domain/events/event-json.ts
 * and the field order of EventSchema then): the JSON text every event stored before 0010 gets.
 * A copy, so the migration fills in the same bytes however the live serialiser changes later.
 */

/** The event's columns of `events` the migration reads, in the table's order. */
export const EVENT_COLUMNS_0010 = [
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
] as const;

/** One row of those columns: `excluded` is 0/1 on SQLite, a boolean on PostgreSQL; `version_object` is JSON text or NULL. */
export type EventRow0010 = Record<(typeof EVENT_COLUMNS_0010)[number], unknown> & {
  company_id: string;
  id: string;
  version_object: string | null;
};

/** The event's JSON as the API showed it: keys in the schema's order, version_object only when the event has one. */
export function eventJson0010(row: EventRow0010): string {
  return JSON.stringify({
    id: row.id,
    company_id: row.company_id,
    connection_id: row.connection_id,
    connection_key: row.connection_key,
    created_at: row.created_at,
    excluded: row.excluded === true || row.excluded === 1,
    flow_id: row.flow_id,
    flow_key: row.flow_key,
    flow_session: row.flow_session,
    like_value: row.like_value,
    seconds_active: row.seconds_active,
    seconds_running: row.seconds_running,
    selected_decision: row.selected_decision,
    step_key: row.step_key,
    text: row.text,
    type: row.type,
    updated_at: row.updated_at,
    user_id: row.user_id,
    version_id: row.version_id,
    version_key: row.version_key,
    // JSON.stringify leaves out an undefined property: absent stays absent.
    version_object: row.version_object === null ? undefined : JSON.parse(row.version_object),
  });
}
