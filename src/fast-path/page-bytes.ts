import type { EventJson } from '../domain/events/event.js';

const COMMA = 0x2c;

/**
 * The EventsListResponse body of a page, byte for byte what the plain path's eventsListBody
 * (http/routes/events/serialize-events.ts) sends, written straight into one buffer: joining
 * the strings first and encoding the result costs more (V8 copies the whole joined string once
 * more before it is encoded).
 */
export function eventsListBytes(events: readonly EventJson[]): Buffer {
  return joinedBytes(`{"count":${events.length},"results":[`, events, ']}');
}

/** A chunk of a large page's body (its head, then its events joined by commas), as eventsListBytes writes a page. */
export function listChunkBytes(head: string, events: readonly EventJson[]): Buffer {
  return joinedBytes(head, events, '');
}

function joinedBytes(head: string, events: readonly EventJson[], tail: string): Buffer {
  let size = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(events.length - 1, 0);
  for (let i = 0; i < events.length; i++) size += Buffer.byteLength(events[i]!);
  // Not from Node's shared pool: a page the page cache keeps must not hold on to a pool slab.
  const bytes = Buffer.allocUnsafeSlow(size);
  let at = bytes.write(head, 0);
  for (let i = 0; i < events.length; i++) {
    if (i > 0) bytes[at++] = COMMA;
    at += bytes.write(events[i]!, at);
  }
  bytes.write(tail, at);
  return bytes;
}
