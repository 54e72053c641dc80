import type { TransactionScope } from '../unit-of-work.js';
import type { EventListQuery } from './event-query.js';
import type { EventJson, StoredEvent } from './event.js';
import type { FeedPosition } from './feed-position.js';

/** One read of the change feed: events (their JSON) in feed order, each with its position. */
export interface FeedPage {
  readonly events: readonly EventJson[];
  readonly positions: readonly FeedPosition[];
  /**
   * PostgreSQL only: committed events lie after the page but are held back because an older
   * transaction is still open (they become readable once it ends). Always false on SQLite.
   */
  readonly heldBack: boolean;
}

/**
 * A page read a chunk at a time from one committed state: its size is known before its first
 * event, so the answer can start before the rest is read.
 */
export interface EventChunks<Chunk> {
  readonly count: number;
  /** The next events of the page in order; empty once all `count` have been read. */
  next(): Promise<Chunk>;
  /** Ends the read, after the last chunk or early; safe to call more than once. */
  close(): Promise<void>;
}

/** An event type a company has, and how many of its events are stored. */
export interface EventTypeCount {
  readonly type: string;
  readonly count: number;
}

/** A chunk of the change feed: events in feed order, each with its position. */
export type FeedChunk = Pick<FeedPage, 'events' | 'positions'>;

/** A batch of events in storage's own form, made by `EventsRepository.prepare`. */
export interface PreparedEvents {
  readonly companyId: string;
  /** The rows it writes: one per id of the batch. */
  readonly rows: number;
}

/** What the events service needs from storage; storage/repositories/events-repository.ts implements it. */
export interface EventsRepository {
  /** One page of the company's events (each as its stored JSON), filtered and ordered as the query says. */
  list(companyId: string, query: EventListQuery): Promise<readonly EventJson[]>;
  /** The same page as `list`, read `chunkEvents` at a time. */
  openList(companyId: string, query: EventListQuery, chunkEvents: number): Promise<EventChunks<readonly EventJson[]>>;
  hasEvents(companyId: string): Promise<boolean>;
  /** Every event type the company has stored, with how many events of it, by type. */
  typeCounts(companyId: string): Promise<EventTypeCount[]>;
  /**
   * Events of the company, each with its JSON (eventJson), encoded into storage's own form for
   * `write`. It needs no transaction, so the next batch is prepared while one is being written.
   * Within one batch the last event of an id wins.
   */
  prepare(companyId: string, events: readonly StoredEvent[]): Promise<PreparedEvents>;
  /**
   * Stores a prepared batch inside the scope's transaction and returns how many rows it wrote;
   * an event whose id is already stored replaces it.
   */
  write(prepared: PreparedEvents, scope: TransactionScope): Promise<number>;
  /**
   * Called once a unit of work that wrote `written` rows has committed, so that storage can
   * refresh what its planner knows. Only a help: the events are stored whether it succeeds or not.
   */
  afterBulkWrite(written: number): Promise<void>;
  /**
   * Inside a write transaction, before its first write: the feed position just before every
   * event the transaction stores (each write gives them the next positions, in order).
   */
  feedPositionBefore(companyId: string, scope: TransactionScope): Promise<FeedPosition>;
  /**
   * Up to `limit` events stored after `after`, in feed order, of one type or all. Never returns
   * a position behind which another event can still appear (commit order, see docs/events.md).
   */
  changes(companyId: string, after: FeedPosition, limit: number, type: string | null): Promise<FeedPage>;
  /** The same events as `changes`, read `chunkEvents` at a time. */
  openChanges(companyId: string, after: FeedPosition, limit: number, type: string | null, chunkEvents: number): Promise<EventChunks<FeedChunk>>;
  /** A position every event stored from now on lies after (the live end of the feed). */
  feedEnd(companyId: string): Promise<FeedPosition>;
  /**
   * Where the company's feed stood when cursors became sealed: the furthest a cursor of the
   * earlier form may lead. Null when the company had no events then.
   */
  legacyCursorLimit(companyId: string): Promise<FeedPosition | null>;
  /**
   * The highest feed position retention has removed from the company; null when it removed
   * none. A cursor below it would skip removed events.
   */
  removedThrough(companyId: string): Promise<FeedPosition | null>;
}
