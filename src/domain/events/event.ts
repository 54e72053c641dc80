/**
 * An event as stored and listed. Field names are the API's. `version_object` holds the JSON
 * text of the event's version_object, returned verbatim, or null when the event has none.
 */
export interface StoredEvent {
  id: string;
  company_id: string;
  connection_id: string | null;
  connection_key: string | null;
  created_at: string;
  excluded: boolean;
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
