import { Readable } from 'node:stream';
import type { StoredEvent } from '../../../domain/events/event.js';

/** Events serialised per chunk, so a 10,000-event page never becomes one object graph plus one string. */
const EVENTS_PER_CHUNK = 500;

const text = (value: string | null): string => (value === null ? 'null' : JSON.stringify(value));
const num = (value: number | null): string => (value === null ? 'null' : String(value));

/** One event as JSON, fields in the Event schema's order; version_object is stored JSON, copied verbatim. */
export function serializeEvent(event: StoredEvent): string {
  return (
    `{"id":${text(event.id)},"company_id":${text(event.company_id)},"connection_id":${text(event.connection_id)},` +
    `"connection_key":${text(event.connection_key)},"created_at":${text(event.created_at)},` +
    `"excluded":${event.excluded ? 'true' : 'false'},"flow_id":${text(event.flow_id)},"flow_key":${text(event.flow_key)},` +
    `"flow_session":${num(event.flow_session)},"like_value":${num(event.like_value)},` +
    `"seconds_active":${num(event.seconds_active)},"seconds_running":${num(event.seconds_running)},` +
    `"selected_decision":${text(event.selected_decision)},"step_key":${text(event.step_key)},"text":${text(event.text)},` +
    `"type":${text(event.type)},"updated_at":${text(event.updated_at)},"user_id":${text(event.user_id)},` +
    `"version_id":${text(event.version_id)},"version_key":${text(event.version_key)}` +
    (event.version_object === null ? '}' : `,"version_object":${event.version_object}}`)
  );
}

function* chunks(events: readonly StoredEvent[]): Generator<string> {
  let chunk = `{"count":${events.length},"results":[`;
  for (let i = 0; i < events.length; i++) {
    chunk += (i === 0 ? '' : ',') + serializeEvent(events[i]!);
    if ((i + 1) % EVENTS_PER_CHUNK === 0 && i + 1 < events.length) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}]}`;
}

/** The EventsListResponse body: a string for a small page, a stream of chunks for a large one. */
export function eventsListBody(events: readonly StoredEvent[]): string | Readable {
  if (events.length <= EVENTS_PER_CHUNK) return chunks(events).next().value as string;
  return Readable.from(chunks(events), { objectMode: false });
}
