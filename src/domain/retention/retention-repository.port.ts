import type { TransactionScope } from '../unit-of-work.js';
import type { CompanyRetention } from './event-retention.js';

/** A company whose events have a period, and its length in days. */
export interface CompanyPeriod {
  readonly companyId: string;
  readonly days: number;
}

/** The outcome of `exclusively`: whether this process ran the work (no other replica was). */
export type ExclusiveRun<T> = { readonly ran: true; readonly value: T } | { readonly ran: false };

/** What retention needs from storage; storage/repositories/retention-repository.ts implements it. */
export interface RetentionRepository {
  /** The company's own setting (event-retention.ts): undefined when it has none. */
  companyRetention(companyId: string): Promise<CompanyRetention>;
  /** Stores the company's own setting; undefined removes it (the deployment default applies again). */
  setCompanyRetention(companyId: string, retention: CompanyRetention): Promise<void>;
  /**
   * Every company whose events have a period: those with days of their own and, when the
   * deployment has a default, every other company that has written anything and not chosen forever.
   */
  companiesWithPeriod(deploymentDays: number | undefined): Promise<CompanyPeriod[]>;
  /**
   * Removes up to `limit` of the company's oldest events whose created_at is before `before`,
   * inside the scope's transaction, and records the highest feed position removed (at `removedAt`);
   * answers how many.
   */
  removeOldest(scope: TransactionScope, companyId: string, before: string, limit: number, removedAt: string): Promise<number>;
  /**
   * PostgreSQL keeps events in a table per month (docs/data-lifecycle.md): creates this month's
   * and the next ones' that are missing. Nothing to do on SQLite.
   */
  prepareMonths(now: Date): Promise<void>;
  /** The months stored whole (PostgreSQL) every event of which is before its company's cutoff (`cutoffs`, by company), oldest first. */
  expiredMonths(cutoffs: ReadonlyMap<string, string>): Promise<string[]>;
  /**
   * Inside the scope's transaction, takes the month out of the events read and written when it is
   * still expired, and records each of its companies' highest feed position as removed (at
   * `removedAt`); answers those companies, or null when it was not taken out.
   */
  detachMonth(scope: TransactionScope, month: string, cutoffs: ReadonlyMap<string, string>, removedAt: string): Promise<string[] | null>;
  /** Deletes the months taken out (and what refers to their events), in batches of `batchSize`; answers the events deleted. */
  dropDetachedMonths(batchSize: number): Promise<number>;
  /** The oldest created_at of any event kept in the database; null when there are none. */
  oldestKept(): Promise<string | null>;
  /**
   * Runs `work` unless another process of the database is running work of this kind (a
   * PostgreSQL advisory lock held for its length); answers whether it ran.
   */
  exclusively<T>(work: () => Promise<T>): Promise<ExclusiveRun<T>>;
}
