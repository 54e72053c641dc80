import { Readable } from 'node:stream';
import type { EventJson } from '../../../domain/events/event.js';
import type { PageChunks } from '../../../domain/events/events-service.js';
import type { JoinedChunks, JoinedEvents } from '../../../fast-path/fast-path.js';

/**
 * The EventsListResponse body (with `moreFields`, e.g. `,"next_cursor":"..."`, after the
 * results) from the events' stored JSON (event-json.ts), as the text sent.
 */
export function eventsListBody(events: readonly EventJson[], moreFields = ''): string {
  return `${headText(events.length)}${events.join(',')}]${moreFields}}`;
}

/** A page read in chunks by the events service, each chunk joined as chunkedEventsListBody sends it. */
export function joinedChunksOf(page: PageChunks): JoinedChunks {
  return {
    count: page.count,
    async next() {
      const events = await page.next();
      return events.length === 0 ? null : { events: events.length, bytes: Buffer.from(events.join(',')) };
    },
    close: () => page.close(),
  };
}

/**
 * The same body as eventsListBody for a page read in chunks (`moreFields` asked for once every
 * chunk has been read): each chunk is read when the client has taken the previous one, so about
 * one chunk of events is held at a time. A failure once the answer has started destroys the
 * stream, which cuts the connection: the client never sees a complete-looking body.
 */
export async function chunkedEventsListBody(page: JoinedChunks, moreFields: () => string = () => ''): Promise<string | Buffer | Readable> {
  let first: JoinedEvents | null;
  try {
    first = page.count === 0 ? null : await page.next();
    if ((first?.events ?? 0) === page.count) {
      if (page.count > 0 && (await page.next()) !== null) throw countMismatch(page.count, `over ${page.count}`);
      await page.close();
      const tail = `]${moreFields()}}`;
      return first ? Buffer.concat([Buffer.from(headText(page.count)), first.bytes, Buffer.from(tail)]) : headText(0) + tail;
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
        .then(async (chunk) => {
          if (chunk === null) {
            if (sent !== page.count) throw countMismatch(page.count, String(sent));
            await page.close();
            this.push(`]${moreFields()}}`);
            this.push(null);
            return;
          }
          const head = sent === 0 ? headText(page.count) : ',';
          sent += chunk.events;
          if (sent > page.count) throw countMismatch(page.count, `over ${page.count}`);
          this.push(head);
          this.push(chunk.bytes);
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
