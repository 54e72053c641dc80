import { Readable } from 'node:stream';
import type { StoredEvent } from '../../../domain/events/event.js';

/** Events serialised per chunk: V8's JSON.stringify is fastest on arrays of a few hundred plain objects. */
const EVENTS_PER_CHUNK = 500;

/** The Event as the API shows it, keys in the schema's order; version_object only when the event has one. */
function toApiEvent(event: StoredEvent): Record<string, unknown> {
  return {
    id: event.id,
    company_id: event.company_id,
    connection_id: event.connection_id,
    connection_key: event.connection_key,
    created_at: event.created_at,
    excluded: event.excluded,
    flow_id: event.flow_id,
    flow_key: event.flow_key,
    flow_session: event.flow_session,
    like_value: event.like_value,
    seconds_active: event.seconds_active,
    seconds_running: event.seconds_running,
    selected_decision: event.selected_decision,
    step_key: event.step_key,
    text: event.text,
    type: event.type,
    updated_at: event.updated_at,
    user_id: event.user_id,
    version_id: event.version_id,
    version_key: event.version_key,
    // JSON.stringify leaves out an undefined property: absent stays absent.
    version_object: event.version_object === null ? undefined : (JSON.parse(event.version_object) as unknown),
  };
}

/**
 * The EventsListResponse body, serialised at once so the rows can be released while the
 * answer drains to the client: one string for a small page, a stream of chunks for a large one.
 */
export function eventsListBody(events: readonly StoredEvent[]): string | Readable {
  const chunks: string[] = [];
  for (let start = 0; start < events.length; start += EVENTS_PER_CHUNK) {
    const array = JSON.stringify(events.slice(start, start + EVENTS_PER_CHUNK).map(toApiEvent));
    chunks.push(start === 0 ? array.slice(1, -1) : `,${array.slice(1, -1)}`);
  }
  const head = `{"count":${events.length},"results":[`;
  if (chunks.length <= 1) return `${head}${chunks[0] ?? ''}]}`;
  return Readable.from([head, ...chunks, ']}'], { objectMode: false });
}
