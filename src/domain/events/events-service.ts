import { feedCursorExpired, invalidHeader, invalidQuery } from '../../errors/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { ByteSource } from '../../lib/json-items.js';
import type { DataVersions } from '../data-versions.port.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { EventsRepository, EventTypeCount } from './events-repository.port.js';
import type { EventListQuery } from './event-query.js';
import type { EventJson } from './event.js';
import type { FeedCursors } from './feed-cursor.js';
import { comparePositions, FEED_START, type FeedPosition } from './feed-position.js';
import type { FeedSignal } from './feed-signal.port.js';
import type { WebhookOutbox } from '../webhooks/outbox.js';
import type { IngestObserver } from './ingest-observer.port.js';
import { ingestEvents, type IngestOptions, type IngestOutcome } from './ingest.js';

export type { IngestOptions, IngestOutcome } from './ingest.js';

/** A parsed GET /v1/events/changes: where to start, how many, which type (null: all). */
export interface ChangesQuery {
  readonly after: FeedPosition;
  readonly limit: number;
  readonly type: string | null;
}

export interface ChangesPage {
  readonly events: readonly EventJson[];
  /** The cursor of each event (a stream's message id), sealed when first read. */
  readonly cursors: readonly string[];
  /** Where the page ended: the last event's cursor, or the query's own when nothing is new. */
  readonly nextCursor: string;
  readonly nextPosition: FeedPosition;
  /** PostgreSQL: more events are committed but wait behind an older open transaction. */
  readonly heldBack: boolean;
}

/** A page read a chunk at a time from one committed state (events-repository.port.ts). */
export interface PageChunks {
  readonly count: number;
  /** The next events in order; empty once all `count` have been read. */
  next(): Promise<readonly EventJson[]>;
  close(): Promise<void>;
}

/** A change-feed page read in chunks; its next cursor is known once every chunk has been read. */
export interface ChangesChunks extends PageChunks {
  nextCursor(): string;
}

export interface EventsService {
  /**
   * The company's data version (data-versions.port.ts), which names the state a list answers.
   * Read it before the page: a write committed in between can then only make it older than the
   * page, never newer.
   */
  version(companyId: string): Promise<number>;
  /** One page of the company's events (parseEventQuery makes the query), each as its stored JSON. */
  list(companyId: string, query: EventListQuery): Promise<readonly EventJson[]>;
  /** The same page as `list`, read a chunk at a time: for pages too large to hold at once. */
  openList(companyId: string, query: EventListQuery): Promise<PageChunks>;
  /**
   * Reads events from a stream (NDJSON or one JSON array), completes and stores them in one
   * transaction, and returns how many were read. Bad events refuse the whole stream: one 400
   * listing every one of them (line or index, field, what is wrong), and nothing is stored.
   */
  ingest(companyId: string, source: ByteSource, options: IngestOptions): Promise<IngestOutcome>;
  hasEvents(companyId: string): Promise<boolean>;
  /** The company's event types with their counts, by type (GET /v1/event-types). */
  typeCounts(companyId: string): Promise<EventTypeCount[]>;
  /**
   * The feed position a cursor holds (`after` of GET /v1/events/changes, or a stream's
   * Last-Event-ID); none = the beginning. A malformed cursor or one of another company is a
   * 400 naming where it came from.
   */
  feedPosition(companyId: string, cursor: string | undefined, source: CursorSource): Promise<FeedPosition>;
  /**
   * Refuses (410) a feed position from before events that retention has since removed: reading
   * on from it would skip them. Called after a page is read, so a removal committed before the
   * read is seen.
   */
  ensureFeedKept(companyId: string, position: FeedPosition): Promise<void>;
  /** The change feed: events stored after a position, in the order they were stored. */
  changes(companyId: string, query: ChangesQuery): Promise<ChangesPage>;
  /** The same events as `changes`, read a chunk at a time. */
  openChanges(companyId: string, query: ChangesQuery): Promise<ChangesChunks>;
  /** The live end of the feed: every event stored from now on lies after it. */
  feedEnd(companyId: string): Promise<FeedPosition>;
}

/** Where a cursor came from, for the 400 that refuses it. */
export type CursorSource = { readonly query: string } | { readonly header: string };

export interface EventsServiceDeps {
  readonly repository: EventsRepository;
  readonly unitOfWork: UnitOfWork;
  readonly dataVersions: DataVersions;
  readonly clock: Clock;
  /** Seals feed positions into cursors and reads them back. */
  readonly cursors: FeedCursors;
  /** Told after each committed ingest, so that stream clients wake up. */
  readonly feedSignal?: FeedSignal;
  /** Announces `events.ingested` in the ingest's own transaction. */
  readonly outbox: WebhookOutbox;
  /** Told how each ingest ended. */
  readonly ingestObserver?: IngestObserver;
}

/** Events read from the database per chunk of a page read in chunks (the fast path's large pages too). */
export const READ_CHUNK_EVENTS = 500;

export function createEventsService({
  repository,
  unitOfWork,
  dataVersions,
  clock,
  cursors: feedCursors,
  feedSignal,
  outbox,
  ingestObserver,
}: EventsServiceDeps): EventsService {
  return {
    async feedPosition(companyId, cursor, source) {
      if (cursor === undefined) return FEED_START;
      const decoded = feedCursors.decode(companyId, cursor);
      if ('position' in decoded) return decoded.position;
      if ('legacy' in decoded) {
        // Anyone can make a cursor of the earlier form: past where the feed stood at the upgrade
        // it would tell where the company's events lie among all others'. It resumes there at
        // the furthest, which skips nothing (docs/events.md).
        const limit = (await repository.legacyCursorLimit(companyId)) ?? FEED_START;
        return comparePositions(decoded.legacy, limit) <= 0 ? decoded.legacy : limit;
      }
      const what = 'query' in source ? `query parameter '${source.query}'` : `header ${source.header}`;
      const message =
        decoded.problem === 'malformed'
          ? `${what} is not a change-feed cursor of this service (pass back a next_cursor or a stream message id)`
          : decoded.problem === 'other-company'
            ? `${what} is a change-feed cursor of another company`
            : `${what} is not a change-feed cursor of this company (pass back a next_cursor or a stream message id it was given)`;
      if ('query' in source) throw invalidQuery(message, [source.query]);
      throw invalidHeader(message, source.header);
    },

    async ensureFeedKept(companyId, position) {
      const removed = await repository.removedThrough(companyId);
      if (removed === null || comparePositions(position, removed) >= 0) return;
      throw feedCursorExpired(
        'this change-feed cursor is from before events that were removed by the retention period of events, so reading on ' +
          'from it would skip them: start again from the beginning (GET /v1/events/changes without after reads from the ' +
          'oldest event kept) or from now (GET /v1/events/stream without after or Last-Event-ID)',
      );
    },

    async changes(companyId, { after, limit, type }) {
      const page = await repository.changes(companyId, after, limit, type);
      const nextPosition = page.positions.at(-1) ?? after;
      let cursors: readonly string[] | undefined;
      return {
        events: page.events,
        // Only a stream sends each event's cursor: a feed page seals its last position alone.
        get cursors() {
          return (cursors ??= feedCursors.encodeAll(companyId, page.positions));
        },
        nextCursor: feedCursors.encode(companyId, nextPosition),
        nextPosition,
        heldBack: page.heldBack,
      };
    },

    feedEnd(companyId) {
      return repository.feedEnd(companyId);
    },

    version(companyId) {
      return dataVersions.current(companyId);
    },

    list(companyId, query) {
      return repository.list(companyId, query);
    },

    openList(companyId, query) {
      return repository.openList(companyId, query, READ_CHUNK_EVENTS);
    },

    async openChanges(companyId, { after, limit, type }) {
      const chunks = await repository.openChanges(companyId, after, limit, type, READ_CHUNK_EVENTS);
      let last = after;
      return {
        count: chunks.count,
        async next() {
          const { events, positions } = await chunks.next();
          last = positions.at(-1) ?? last;
          return events;
        },
        close: () => chunks.close(),
        nextCursor: () => feedCursors.encode(companyId, last),
      };
    },

    hasEvents(companyId) {
      return repository.hasEvents(companyId);
    },

    typeCounts(companyId) {
      return repository.typeCounts(companyId);
    },

    ingest(companyId, source, options) {
      return ingestEvents(
        { repository, unitOfWork, dataVersions, clock, cursors: feedCursors, feedSignal, outbox, ingestObserver },
        companyId,
        source,
        options,
      );
    },
  };
}
