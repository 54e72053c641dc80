/**
 * Tables of workflow events. `version_object` is JSON text: NULL when the event has no
 * version_object, the text `null` when it was given as null. `excluded` is 0/1 on SQLite and
 * a boolean on PostgreSQL.
 */
export interface EventsTable {
  company_id: string;
  id: string;
  connection_id: string | null;
  connection_key: string | null;
  created_at: string;
  excluded: boolean | number;
  flow_id: string | null;
  flow_key: string | null;
  flow_session: number | null;
  like_value: number | null;
  seconds_active: number | null;
  seconds_running: number | null;
  selected_decision: string | null;
  step_key: string | null;
  text: string | null;
  type: string;
  updated_at: string;
  user_id: string | null;
  version_id: string | null;
  version_key: string | null;
  version_object: string | null;
}

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
