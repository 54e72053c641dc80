import { EventSchema, type ApiEvent, type EventJson, type StoredEvent } from './event.js';

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
      return field === 'version_object' ? `${key}: event.version_object === null ? undefined : parse(event.version_object)` : `${key}: event[${key}]`;
    })
    .join(', ')} });`,
)(JSON.parse) as (event: StoredEvent) => ApiEvent;

/** The JSON text every answer shows for the event: written once, when the event is stored. */
export function eventJson(event: StoredEvent): EventJson {
  return JSON.stringify(toApiEvent(event));
}
