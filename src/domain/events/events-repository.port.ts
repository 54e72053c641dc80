import type { TransactionScope } from '../unit-of-work.js';
import type { EventListQuery } from './event-query.js';
import type { StoredEvent } from './event.js';

/** What the events service needs from storage; storage/repositories/events-repository.ts implements it. */
export interface EventsRepository {
  /** One page of the company's events, filtered and ordered as the query says. */
  list(companyId: string, query: EventListQuery): Promise<StoredEvent[]>;
  hasEvents(companyId: string): Promise<boolean>;
  /**
   * Stores events of the company inside the scope's transaction and returns how many rows it
   * wrote; an event whose id is already stored replaces it, and within one call the last event
   * of an id wins.
   */
  write(companyId: string, events: readonly StoredEvent[], scope: TransactionScope): Promise<number>;
  /**
   * Called once a unit of work that wrote `written` rows has committed, so that storage can
   * refresh what its planner knows. Only a help: the events are stored whether it succeeds or not.
   */
  afterBulkWrite(written: number): Promise<void>;
}
