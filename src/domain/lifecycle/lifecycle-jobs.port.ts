import type { TransactionScope } from '../unit-of-work.js';
import type { Requester, StoredErasure } from './erasure.js';
import type { StoredOffboarding } from './offboarding.js';

export interface NewErasure {
  companyId: string;
  id: string;
  subjectHash: string;
  subjectSealed: string;
  requestedBy: Requester;
  at: string;
}

/** Erasure jobs and their audit entries, per company. */
export interface ErasuresRepository {
  /** Stores a running erasure, or answers the one already running for the same subject (created false). */
  start(job: NewErasure): Promise<{ erasure: StoredErasure; created: boolean }>;
  get(companyId: string, id: string): Promise<StoredErasure | undefined>;
  /** The company's erasures, newest first. */
  list(companyId: string): Promise<StoredErasure[]>;
  /** Every running erasure of every company, oldest first: what a restarted service continues. */
  running(): Promise<Array<{ companyId: string; id: string }>>;
  /** Takes the job's lease until `until` when it runs and no live lease holds it; false otherwise. */
  claim(companyId: string, id: string, now: string, until: string): Promise<boolean>;
  /** Adds a batch's counts and renews the lease, in the batch's transaction. */
  addProgress(
    scope: TransactionScope,
    companyId: string,
    id: string,
    removed: { events: number; recordTokens: number },
    now: string,
    until: string,
  ): Promise<void>;
  /** Marks the job done and forgets the sealed value; the row stays as the audit entry. */
  finish(companyId: string, id: string, at: string): Promise<void>;
}

/** Offboarding jobs: one per company, kept (with its report) after the company's data is gone. */
export interface OffboardingsRepository {
  /** Starts (or restarts, when the last one is done) the company's offboarding; answers it. */
  start(companyId: string, requestedBy: Requester, at: string): Promise<StoredOffboarding>;
  get(companyId: string): Promise<StoredOffboarding | undefined>;
  running(): Promise<string[]>;
  claim(companyId: string, now: string, until: string): Promise<boolean>;
  /** Stores the report so far and renews the lease, in the batch's transaction. */
  saveProgress(scope: TransactionScope, companyId: string, removed: Record<string, number>, now: string, until: string): Promise<void>;
  /** Marks it done with its final report (every table, 0 for those that held nothing). */
  finish(companyId: string, at: string, removed: Record<string, number>): Promise<void>;
}

/** Removal of a company's rows in bounded batches; each call is one statement inside the caller's transaction. */
export interface CompanyDataRemover {
  /** The company's tables, in the order an offboarding empties them (the one registry: storage/table-registry.ts). */
  readonly tables: readonly string[];
  /** Deletes at most `limit` of the company's rows of `table`; answers how many. */
  removeBatch(scope: TransactionScope, table: string, companyId: string, limit: number): Promise<number>;
  /** Deletes at most `limit` events of the company whose user_id is `userId`. */
  removeUserEvents(scope: TransactionScope, companyId: string, userId: string, limit: number): Promise<number>;
  /** Deletes at most `limit` record tokens of the company minted by `userId` (their subject). */
  removeUserRecordTokens(scope: TransactionScope, companyId: string, userId: string, limit: number): Promise<number>;
}
