import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../../lib/clock.js';
import type { DataVersions } from '../data-versions.port.js';
import type { FeedSignal } from '../events/feed-signal.port.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { effectiveRetention, type EventRetention } from './event-retention.js';
import type { RetentionObserver } from './retention-observer.port.js';
import type { RetentionRepository } from './retention-repository.port.js';

const DAY_MS = 86_400_000;

/** What one sweep did. */
export interface SweepOutcome {
  /** False when another replica was sweeping, so this one left it to that one. */
  readonly swept: boolean;
  readonly removed: number;
}

export interface RetentionService {
  /** The company's effective period and where it comes from. */
  get(companyId: string): Promise<EventRetention>;
  /** Sets the company's own period in days, or null to keep its events forever. */
  set(companyId: string, days: number | null): Promise<EventRetention>;
  /** Removes the company's own period: the deployment default applies again. */
  clear(companyId: string): Promise<EventRetention>;
  /**
   * Removes every event older than its company's period, in batches of `batchSize`, each its own
   * short transaction, pausing between them. A sweep already running in this process is joined.
   */
  sweep(): Promise<SweepOutcome>;
  /**
   * Prepares the coming months' storage at once, then sweeps (preparing them again) every
   * `sweepIntervalMs` until `stop`; a failed sweep is reported and tried again at the next.
   */
  start(onError: (error: unknown) => void): void;
  /** Stops the timer and ends a running sweep after its current batch. */
  stop(): Promise<void>;
}

export interface RetentionServiceDeps {
  readonly repository: RetentionRepository;
  readonly unitOfWork: UnitOfWork;
  readonly dataVersions: DataVersions;
  readonly clock: Clock;
  readonly observer?: RetentionObserver;
  /** Told after each batch that removed events, so that open streams of the company check their position at once. */
  readonly feedSignal?: Pick<FeedSignal, 'changed'>;
  readonly settings: {
    readonly defaultDays: number | undefined;
    readonly sweepIntervalMs: number;
    readonly batchSize: number;
    readonly batchPauseMs: number;
  };
}

export function createRetentionService({
  repository,
  unitOfWork,
  dataVersions,
  clock,
  observer,
  feedSignal,
  settings,
}: RetentionServiceDeps): RetentionService {
  let running: Promise<SweepOutcome> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let preparing: Promise<unknown> | undefined;

  const get = async (companyId: string) => effectiveRetention(companyId, await repository.companyRetention(companyId), settings.defaultDays);

  /** Batches of one company until none is full; each batch bumps the data version, so no cached page shows its events. */
  const sweepCompany = async (companyId: string, before: string): Promise<number> => {
    let removed = 0;
    while (!stopped) {
      const count = await unitOfWork.run(async (scope) => {
        const n = await repository.removeOldest(scope, companyId, before, settings.batchSize, clock.now().toISOString());
        if (n > 0) await dataVersions.bump(scope, companyId);
        return n;
      });
      removed += count;
      if (count > 0) {
        observer?.removed(count);
        feedSignal?.changed(companyId);
      }
      if (count < settings.batchSize) break;
      // Even with no pause the next batch waits for the next turn of the event loop: writers
      // already waiting for SQLite's one writer connection get it first (measured: without
      // this, an ingest waited for the whole sweep).
      await sleep(settings.batchPauseMs);
    }
    return removed;
  };

  /**
   * Whole months past every one of their companies' periods go at once (PostgreSQL): each is
   * taken out in one short transaction that bumps its companies' data versions, then deleted in
   * batches. The per-company batches then remove what is left (the partial edge).
   */
  const dropExpiredMonths = async (cutoffs: ReadonlyMap<string, string>): Promise<number> => {
    for (const month of await repository.expiredMonths(cutoffs)) {
      if (stopped) break;
      const companies = await unitOfWork.run(async (scope) => {
        const taken = await repository.detachMonth(scope, month, cutoffs, clock.now().toISOString());
        for (const companyId of taken ?? []) await dataVersions.bump(scope, companyId);
        return taken ?? [];
      });
      for (const companyId of companies) feedSignal?.changed(companyId);
    }
    const dropped = await repository.dropDetachedMonths(settings.batchSize);
    if (dropped > 0) observer?.removed(dropped);
    return dropped;
  };

  const sweepAll = async (): Promise<SweepOutcome> => {
    const run = await repository.exclusively(async () => {
      const now = clock.now().getTime();
      await repository.prepareMonths(new Date(now));
      const periods = await repository.companiesWithPeriod(settings.defaultDays);
      const cutoffs = new Map(periods.map(({ companyId, days }) => [companyId, new Date(now - days * DAY_MS).toISOString()]));
      let removed = await dropExpiredMonths(cutoffs);
      for (const [companyId, before] of cutoffs) {
        if (stopped) break;
        removed += await sweepCompany(companyId, before);
      }
      return removed;
    });
    // Every replica reports what the database keeps, whichever of them swept.
    observer?.oldestKept(await repository.oldestKept());
    return run.ran ? { swept: true, removed: run.value } : { swept: false, removed: 0 };
  };

  /** At start: the months ahead exist before the first sweep, on one replica at a time. */
  const prepareMonths = (): Promise<unknown> => repository.exclusively(() => repository.prepareMonths(clock.now()));

  const schedule = (onError: (error: unknown) => void): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      void service
        .sweep()
        .catch(onError)
        .finally(() => schedule(onError));
    }, settings.sweepIntervalMs);
    timer.unref();
  };

  const service: RetentionService = {
    get,

    async set(companyId, days) {
      await repository.setCompanyRetention(companyId, days);
      return get(companyId);
    },

    async clear(companyId) {
      await repository.setCompanyRetention(companyId, undefined);
      return get(companyId);
    },

    sweep() {
      running ??= sweepAll().finally(() => {
        running = undefined;
      });
      return running;
    },

    start(onError) {
      if (timer !== undefined) return;
      stopped = false;
      preparing = prepareMonths().catch(onError);
      schedule(onError);
    },

    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await running?.catch(() => undefined);
      await preparing;
    },
  };
  return service;
}
