import { performance } from 'node:perf_hooks';
import type { Database } from './database.js';
import { createDataVersionsRepository } from './repositories/data-versions-repository.js';

/** The standby going down (reads go to the primary for `retryMs`) or answering again. */
export type StandbyChange = { readonly state: 'down'; readonly error: unknown; readonly retryMs: number } | { readonly state: 'back' };

/** How many reads each database has answered. */
export interface ReadCounts {
  readonly standby: number;
  readonly primary: number;
}

/** Where a read of a company's lists is answered: the primary, or a standby that has caught up with the company. */
export interface ReadRouting {
  /**
   * Runs `read` on the standby when it has replayed every write of the company that the
   * primary had committed when the read began, else on the primary. A standby that fails
   * (down, unreachable, or a query cancelled by its replay) hands the read to the primary.
   */
  read<T>(companyId: string, read: (database: Database) => Promise<T>): Promise<T>;
  counts(): ReadCounts;
  /** Where the standby going down and coming back is reported (the log). */
  onStandbyChange(listener: (change: StandbyChange) => void): void;
  /** Closes the standby's pool; the primary is closed by its owner. */
  close(): Promise<void>;
}

/** Every read on the primary: SQLite, or PostgreSQL without WRS_DATABASE_READ_URL. */
export function primaryReads(primary: Database): ReadRouting {
  let primaryCount = 0;
  return {
    read(_companyId, read) {
      primaryCount += 1;
      return read(primary);
    },
    counts: () => ({ standby: 0, primary: primaryCount }),
    onStandbyChange: () => undefined,
    close: async () => undefined,
  };
}

export interface StandbyReadsOptions {
  /** After a standby failure, reads skip it for this long, so each one does not pay the connect timeout. */
  readonly retryMs: number;
}

/** A hot standby's query cancelled because replay needed what it read. */
const RECOVERY_CONFLICT = '40001';

/**
 * Reads of a company go to the standby once it has replayed the company's latest write. The
 * company's data version (data-versions.port.ts) is bumped by every write transaction that can
 * change a list, in that transaction: the standby's version reaching the primary's means it
 * has replayed those writes, whichever service replica made them. Comparing costs one indexed
 * row read on each side, run in parallel; a standby behind answers nothing (no waiting: the
 * primary answers at once).
 */
export function standbyReads(primary: Database, standby: Database, { retryMs }: StandbyReadsOptions): ReadRouting {
  const primaryVersions = createDataVersionsRepository(primary.db);
  const standbyVersions = createDataVersionsRepository(standby.db);
  let standbyCount = 0;
  let primaryCount = 0;
  let skipUntil = 0;
  let down = false;
  let listener: (change: StandbyChange) => void = () => undefined;

  const onPrimary = <T>(read: (database: Database) => Promise<T>): Promise<T> => {
    primaryCount += 1;
    return read(primary);
  };

  const failed = (error: unknown) => {
    skipUntil = performance.now() + retryMs;
    if (down) return;
    down = true;
    listener({ state: 'down', error, retryMs });
  };

  const answered = () => {
    if (!down) return;
    down = false;
    listener({ state: 'back' });
  };

  /** True when the standby has every write of the company the primary has committed now. */
  const caughtUp = async (companyId: string): Promise<boolean> => {
    const replayed = standbyVersions.current(companyId).then(
      (version) => ({ version }),
      (error: unknown) => ({ error }),
    );
    const committed = await primaryVersions.current(companyId);
    const standbyAnswer = await replayed;
    if ('error' in standbyAnswer) {
      failed(standbyAnswer.error);
      return false;
    }
    answered();
    return standbyAnswer.version >= committed;
  };

  return {
    async read(companyId, read) {
      if (performance.now() < skipUntil || !(await caughtUp(companyId))) return onPrimary(read);
      let result;
      try {
        result = await read(standby);
      } catch (error) {
        if (standby.unavailability(error) !== null) failed(error);
        else if ((error as { code?: unknown } | null)?.code !== RECOVERY_CONFLICT) throw error;
        return onPrimary(read);
      }
      standbyCount += 1;
      return result;
    },
    counts: () => ({ standby: standbyCount, primary: primaryCount }),
    onStandbyChange(next) {
      listener = next;
    },
    close: () => standby.close(),
  };
}
