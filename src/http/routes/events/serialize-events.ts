import { Readable } from 'node:stream';
import { EventSchema, type ApiEvent, type StoredEvent } from '../../../domain/events/event.js';

/** Events serialised per chunk: V8's JSON.stringify is fastest on arrays of a few hundred plain objects. */
const EVENTS_PER_CHUNK = 500;

/**
 * The Event as the API shows it, keys in the schema's order; version_object only when the event
 * has one (JSON.stringify leaves out an undefined property: absent stays absent). Compiled once
 * from the schema's field names into one object literal, as Fastify compiles its serializers:
 * V8 builds and stringifies such objects about a third faster than ones filled in a loop.
 */
export const toApiEvent = new Function(
  'parse',
  `return (event) => ({ ${Object.keys(EventSchema.properties)
    .map((field) => {
      const key = JSON.stringify(field);
      return field === 'version_object'
        ? `${key}: event.version_object === null ? undefined : parse(event.version_object)`
        : `${key}: event[${key}]`;
    })
    .join(', ')} });`,
)(JSON.parse) as (event: StoredEvent) => ApiEvent;

/**
 * The EventsListResponse body (with `moreFields`, e.g. `,"next_cursor":"..."`, after the
 * results), serialised at once so the rows can be released while the
 * answer drains to the client: one string for a small page, a stream of chunks for a large one.
 */
export function eventsListBody(events: readonly StoredEvent[], moreFields = ''): string | Readable {
  const chunks: string[] = [];
  for (let start = 0; start < events.length; start += EVENTS_PER_CHUNK) {
    const array = JSON.stringify(events.slice(start, start + EVENTS_PER_CHUNK).map(toApiEvent));
    chunks.push(start === 0 ? array.slice(1, -1) : `,${array.slice(1, -1)}`);
  }
  const head = `{"count":${events.length},"results":[`;
  const tail = `]${moreFields}}`;
  if (chunks.length <= 1) return `${head}${chunks[0] ?? ''}${tail}`;
  return Readable.from([head, ...chunks, tail], { objectMode: false });
}
