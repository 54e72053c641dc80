import { Readable } from 'node:stream';
import type { EventJson } from '../../../domain/events/event.js';
import type { PageChunks } from '../../../domain/events/events-service.js';

/**
 * The EventsListResponse body (with `moreFields`, e.g. `,"next_cursor":"..."`, after the
 * results) from the events' stored JSON (event-json.ts), as the text sent.
 */
export function eventsListBody(events: readonly EventJson[], moreFields = ''): string {
  return `${headText(events.length)}${events.join(',')}]${moreFields}}`;
}

/**
 * The same body as eventsListBody for a page read in chunks (`moreFields` asked for once every
 * chunk has been read): each chunk is read and joined when the client has taken the previous
 * one, so about one chunk of events is held at a time. A failure once the answer has started
 * destroys the stream, which cuts the connection: the client never sees a complete-looking body.
 * `chunkBytes` may give a chunk's bytes (the fast path's); otherwise its text is joined here.
 */
export async function chunkedEventsListBody(
  page: PageChunks,
  moreFields: () => string = () => '',
  chunkBytes: (head: string, events: readonly EventJson[]) => Buffer | undefined = () => undefined,
): Promise<string | Readable> {
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
          this.push(chunkBytes(head, events) ?? Buffer.from(head + events.join(',')));
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

function countMismatch(counted: number, read: string): Error {
  return new Error(`a page read in chunks counted ${counted} events but read ${read}`);
}
