import type { EventListQuery } from './event-query.js';
import type { StoredEvent } from './event.js';

/** Writes events inside the transaction of one ingest request. */
export interface EventWriter {
  /**
   * Stores events of the writer's company; an event whose id is already stored replaces it,
   * and within one call the last event of an id wins.
   */
  write(events: readonly StoredEvent[]): Promise<void>;
}

/** What the events service needs from storage; storage/repositories/events-repository.ts implements it. */
export interface EventsRepository {
  /** One page of the company's events, filtered and ordered as the query says. */
  list(companyId: string, query: EventListQuery): Promise<StoredEvent[]>;
  hasEvents(companyId: string): Promise<boolean>;
  /** Runs `work` in one transaction: everything it wrote is stored if it resolves, nothing if it throws. */
  inTransaction<T>(companyId: string, work: (writer: EventWriter) => Promise<T>): Promise<T>;
}
