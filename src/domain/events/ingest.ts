import { invalidBody } from '../../errors/app-error.js';
import { batchRefused } from '../../errors/item-problems.js';
import type { Clock } from '../../lib/clock.js';
import type { ByteSource, JsonItemsFormat } from '../../lib/json-items.js';
import type { DataVersions } from '../data-versions.port.js';
import { importStream } from '../stream-import.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { WebhookOutbox } from '../webhooks/outbox.js';
import { createEventNormalizer, EventInputError } from './event-input.js';
import type { StoredEvent } from './event.js';
import type { EventsRepository, PreparedEvents } from './events-repository.port.js';
import type { FeedCursors } from './feed-cursor.js';
import type { FeedPosition } from './feed-position.js';
import type { FeedSignal } from './feed-signal.port.js';
import type { IngestObserver } from './ingest-observer.port.js';

export interface IngestOptions {
  readonly format: JsonItemsFormat;
  /** Called after each stored batch with the number of events ingested so far. */
  readonly onProgress?: (ingested: number) => void;
}

/** What an ingest stored. */
export interface IngestOutcome {
  readonly ingested: number;
  /** The change-feed cursor just before the request's events: `after=<this>` reads them first. */
  readonly feedCursorBefore: string;
}

export interface IngestDeps {
  readonly repository: EventsRepository;
  readonly unitOfWork: UnitOfWork;
  readonly dataVersions: DataVersions;
  readonly clock: Clock;
  readonly cursors: FeedCursors;
  readonly feedSignal?: FeedSignal | undefined;
  readonly outbox: WebhookOutbox;
  readonly ingestObserver?: IngestObserver | undefined;
}

/**
 * Events read before the transaction starts: a request of up to this many events holds the
 * write transaction only for its inserts, never while its body is still arriving.
 */
const READ_AHEAD_EVENTS = 20_000;
const WRITE_BATCH_EVENTS = 5000;

/** EventsService.ingest: events from a stream, completed and stored all or nothing. */
export async function ingestEvents(deps: IngestDeps, companyId: string, source: ByteSource, { format, onProgress }: IngestOptions): Promise<IngestOutcome> {
  const { repository, unitOfWork, dataVersions, clock, cursors, feedSignal, outbox, ingestObserver } = deps;
  const normalize = createEventNormalizer(companyId, clock);
  let before: FeedPosition | undefined;
  let written = 0;
  const outcome = await importStream<StoredEvent, { events: number; prepared: PreparedEvents }>({
    source,
    format,
    unitOfWork,
    readAhead: READ_AHEAD_EVENTS,
    batchSize: WRITE_BATCH_EVENTS,
    check(value, _position, report) {
      try {
        return normalize(value);
      } catch (error) {
        if (!(error instanceof EventInputError)) throw error;
        report(error.field, error.message);
        return undefined;
      }
    },
    // Encoded while the previous batch is written: on PostgreSQL the database works on the write meanwhile.
    prepare: async (events) => ({ events: events.length, prepared: await repository.prepare(companyId, events) }),
    async begin(scope) {
      before = await repository.feedPositionBefore(companyId, scope);
    },
    async write(batch, scope, storedBefore) {
      written += await repository.write(batch.prepared, scope);
      onProgress?.(storedBefore + batch.events);
    },
    async finish(scope, ingested) {
      await outbox.enqueue(scope, companyId, 'events.ingested', { count: ingested, cursor: cursors.encode(companyId, before!) });
      await dataVersions.bump(scope, companyId);
    },
  });
  if (!outcome.refused) {
    if (written > 0) {
      feedSignal?.changed(companyId);
      // The events are committed; fresher statistics are only a help to the planner.
      await repository.afterBulkWrite(written).catch(() => undefined);
    }
    ingestObserver?.stored(outcome.stored);
    return { ingested: outcome.stored, feedCursorBefore: cursors.encode(companyId, before ?? (await repository.feedEnd(companyId))) };
  }
  ingestObserver?.refused();
  const { problems, problemCount, bodyProblem } = outcome;
  if (problemCount === 0) throw invalidBody(`${bodyProblem}; nothing was stored`);
  const summary = `${bodyProblem ? `${bodyProblem}, and ` : ''}events refused, nothing was stored`;
  throw batchRefused(summary, problems, problemCount);
}
