import { Readable } from 'node:stream';
import type { EventJson } from '../../../domain/events/event.js';
import type { PageChunks } from '../../../domain/events/events-service.js';

/**
 * The EventsListResponse body (with `moreFields`, e.g. `,"next_cursor":"..."`, after the
 * results) from the events' stored JSON (event-json.ts), as the bytes sent.
 */
export function eventsListBody(events: readonly EventJson[], moreFields = ''): Buffer {
  return joinedBytes(headText(events.length), events, `]${moreFields}}`);
}

/**
 * The same body as eventsListBody for a page read in chunks (`moreFields` asked for once every
 * chunk has been read): each chunk is read and joined when the client has taken the previous
 * one, so about one chunk of events is held at a time. A failure once the answer has started
 * destroys the stream, which cuts the connection: the client never sees a complete-looking body.
 */
export async function chunkedEventsListBody(page: PageChunks, moreFields: () => string = () => ''): Promise<Buffer | Readable> {
  let first: readonly EventJson[];
  try {
    first = page.count === 0 ? [] : await page.next();
    if (first.length === page.count) {
      if (page.count > 0 && (await page.next()).length > 0) throw countMismatch(page.count, `over ${page.count}`);
      await page.close();
      return eventsListBody(first, moreFields());
    }
  } catch (error) {
    await page.close();
    throw error;
  }
  let sent = 0;
  return new Readable({
    read() {
      const send = sent === 0 ? Promise.resolve(first) : page.next();
      send
        .then(async (events) => {
          if (events.length === 0) {
            if (sent !== page.count) throw countMismatch(page.count, String(sent));
            await page.close();
            this.push(`]${moreFields()}}`);
            this.push(null);
            return;
          }
          const head = sent === 0 ? headText(page.count) : ',';
          sent += events.length;
          if (sent > page.count) throw countMismatch(page.count, `over ${page.count}`);
          this.push(joinedBytes(head, events, ''));
        })
        .catch((error: unknown) => this.destroy(error as Error));
    },
    destroy(error, callback) {
      page.close().then(
        () => callback(error),
        () => callback(error),
      );
    },
  });
}

function headText(count: number): string {
  return `{"count":${count},"results":[`;
}

const COMMA = 0x2c;

/**
 * `head`, the events separated by commas, then `tail`, written straight into one buffer: the
 * bytes the socket takes. Joining the strings first and encoding the result costs far more (V8
 * copies the whole joined string once more before it is encoded).
 */
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

function countMismatch(counted: number, read: string): Error {
  return new Error(`a page read in chunks counted ${counted} events but read ${read}`);
}
