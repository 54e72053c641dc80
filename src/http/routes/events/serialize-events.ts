import { Readable } from 'node:stream';
import type { EventJson } from '../../../domain/events/event.js';
import type { PageChunks } from '../../../domain/events/events-service.js';

/** Events joined per chunk of a large answer: a few hundred KB, written to the socket one at a time. */
const EVENTS_PER_CHUNK = 500;

/**
 * The EventsListResponse body (with `moreFields`, e.g. `,"next_cursor":"..."`, after the
 * results) from the events' stored JSON (event-json.ts): one string for a small page, a
 * stream of chunks for a large one.
 */
export function eventsListBody(events: readonly EventJson[], moreFields = ''): string | Readable {
  if (events.length <= EVENTS_PER_CHUNK) return `${headText(events.length)}${events.join(',')}]${moreFields}}`;
  const chunks: string[] = [];
  for (let start = 0; start < events.length; start += EVENTS_PER_CHUNK) {
    chunks.push(resultsText(events.slice(start, start + EVENTS_PER_CHUNK), start > 0));
  }
  return Readable.from([headText(events.length), ...chunks, `]${moreFields}}`], { objectMode: false });
}

/**
 * The same body as eventsListBody for a page read in chunks (`moreFields` asked for once every
 * chunk has been read): each chunk is serialised when the client has taken the previous one, so
 * about one chunk of rows and of JSON is held at a time. A failure once the answer has started
 * destroys the stream, which cuts the connection: the client never sees a complete-looking body.
 */
export async function chunkedEventsListBody(page: PageChunks, moreFields: () => string = () => ''): Promise<string | Readable> {
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
      send.then(
        async (events) => {
          if (events.length === 0) {
            if (sent !== page.count) throw countMismatch(page.count, String(sent));
            await page.close();
            this.push(`]${moreFields()}}`);
            this.push(null);
            return;
          }
          const text = resultsText(events, sent > 0);
          sent += events.length;
          if (sent > page.count) throw countMismatch(page.count, `over ${page.count}`);
          this.push(sent === events.length ? `${headText(page.count)}${text}` : text);
        },
      ).catch((error: unknown) => this.destroy(error as Error));
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

/** The events as the inside of a JSON array, after a comma when they follow others. */
function resultsText(events: readonly EventJson[], afterOthers: boolean): string {
  const joined = events.join(',');
  return afterOthers ? `,${joined}` : joined;
}

function countMismatch(counted: number, read: string): Error {
  return new Error(`a page read in chunks counted ${counted} events but read ${read}`);
}
