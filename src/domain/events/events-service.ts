import { AppError, invalidBody } from '../../errors/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { JsonItemsError, readJsonItems, type ByteSource, type JsonItemsFormat } from '../../lib/json-items.js';
import type { EventsRepository } from '../../storage/repositories/events-repository.js';
import { createEventNormalizer, EventInputError } from './event-input.js';
import { parseEventQuery, type EventQueryParams } from './event-query.js';
import type { StoredEvent } from './event.js';

export interface IngestOptions {
  readonly format: JsonItemsFormat;
  /** Called after each stored batch with the number of events ingested so far. */
  readonly onProgress?: (ingested: number) => void;
}

export interface EventsService {
  /** One page of the company's events; throws a 400 for a query that cannot be answered. */
  list(companyId: string, params: EventQueryParams): Promise<StoredEvent[]>;
  /**
   * Reads events from a stream (NDJSON or one JSON array), completes and stores them in one
   * transaction, and returns how many were read. A bad event is a 400 naming its line or
   * index, and nothing of the stream is stored.
   */
  ingest(companyId: string, source: ByteSource, options: IngestOptions): Promise<number>;
  hasEvents(companyId: string): Promise<boolean>;
}

export interface EventsServiceDependencies {
  readonly repository: EventsRepository;
  readonly clock: Clock;
}

/**
 * Events read before the transaction starts: a request of up to this many events holds the
 * write transaction only for its inserts, never while its body is still arriving.
 */
const READ_AHEAD_EVENTS = 20_000;
const WRITE_BATCH_EVENTS = 5000;

export function createEventsService({ repository, clock }: EventsServiceDependencies): EventsService {
  return {
    list(companyId, params) {
      return repository.list(companyId, parseEventQuery(params));
    },

    hasEvents(companyId) {
      return repository.hasEvents(companyId);
    },

    async ingest(companyId, source, { format, onProgress }) {
      const normalize = createEventNormalizer(companyId, clock);
      const items = readJsonItems(source, format);
      const refused = (reason: string, position: number | null): AppError => {
        if (position === null) return invalidBody(`${reason}; nothing was stored`);
        const place = format === 'ndjson' ? `line ${position}` : `event at index ${position}`;
        return invalidBody(`${place}: ${reason}; nothing was stored`, format === 'ndjson' ? { line: position } : { index: position });
      };

      const readBatch = async (size: number): Promise<StoredEvent[]> => {
        const batch: StoredEvent[] = [];
        while (batch.length < size) {
          let next: IteratorResult<{ value: unknown; position: number }>;
          try {
            next = await items.next();
          } catch (error) {
            if (error instanceof JsonItemsError) throw refused(error.message, error.position);
            throw error;
          }
          if (next.done) break;
          try {
            batch.push(normalize(next.value.value));
          } catch (error) {
            if (error instanceof EventInputError) throw refused(error.message, next.value.position);
            throw error;
          }
        }
        return batch;
      };

      try {
        let batch = await readBatch(READ_AHEAD_EVENTS);
        if (batch.length === 0) return 0;
        let ingested = 0;
        await repository.inTransaction(companyId, async (writer) => {
          while (batch.length > 0) {
            await writer.write(batch);
            ingested += batch.length;
            onProgress?.(ingested);
            batch = await readBatch(WRITE_BATCH_EVENTS);
          }
        });
        return ingested;
      } finally {
        await items.return(undefined);
      }
    },
  };
}
