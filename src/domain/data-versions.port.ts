import type { TransactionScope } from './unit-of-work.js';

/**
 * A number per company that grows with every committed write that can change what the
 * company's lists (events, records) answer. Lists name the state they were read from with it.
 *
 * The rule: every write transaction of a company calls `bump` as its LAST statement. On
 * PostgreSQL the bump locks the company's version row until the commit, so taking it last
 * keeps concurrent writers of one company serialised only for the moment of their commit,
 * and no lock is ever taken after it (no deadlock with the rows a writer locks before).
 */
export interface DataVersions {
  /** Adds one to the company's version inside the transaction (stored if it commits). */
  bump(scope: TransactionScope, companyId: string): Promise<void>;
  /** The company's committed version; 0 before its first write. */
  current(companyId: string): Promise<number>;
}
