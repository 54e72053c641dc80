import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { notFound } from '../../errors/app-error.js';
import type { BackgroundJobs } from './background-jobs.js';
import type { Clock } from '../../lib/clock.js';
import type { DataVersions } from '../data-versions.port.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { Requester } from './erasure.js';
import { JOB_LEASE_MS, leaseUntil } from './job-lease.js';
import type { CompanyDataRemover, OffboardingsRepository } from './lifecycle-jobs.port.js';
import type { Offboarding, StoredOffboarding } from './offboarding.js';

export interface OffboardingService {
  /** Starts the company's offboarding, or answers the one already running; `run` does the work. */
  request(companyId: string, requestedBy: Requester): Promise<Offboarding>;
  /** Runs the remaining batches and answers the report; answers it as it stands when another process holds it. */
  run(companyId: string): Promise<Offboarding>;
  /** Runs it after answering: errors go to `onError`, and the next service start continues it. */
  runInBackground(companyId: string, onError: (error: unknown) => void): void;
  get(companyId: string): Promise<Offboarding>;
  /**
   * What `wrs serve` starts: every unfinished offboarding continued now and once a lease period
   * after, so the job of a process that died (on this replica or another) is taken over soon
   * after its lease lapses (one still leased by a live process is left to it).
   */
  keepResuming(onError: (error: unknown) => void): void;
  /** Continues every unfinished offboarding whose lease has lapsed, here and now, and answers them. */
  resumeUnfinished(): Promise<Offboarding[]>;
}

export interface OffboardingServiceDeps {
  jobs: OffboardingsRepository;
  remover: CompanyDataRemover;
  unitOfWork: UnitOfWork;
  dataVersions: DataVersions;
  clock: Clock;
  batchRows: number;
  /** Runs jobs after the request that asked for them; stops them between batches on close. */
  background: BackgroundJobs;
}

export function createOffboardingService(deps: OffboardingServiceDeps): OffboardingService {
  const { jobs, remover, unitOfWork, dataVersions, clock, batchRows, background } = deps;

  async function found(companyId: string): Promise<StoredOffboarding> {
    const job = await jobs.get(companyId);
    if (!job) throw notFound(`company '${companyId}' has no offboarding`);
    return job;
  }

  /** One transaction: at most `batchRows` rows of one table, the report stored with them, the version bumped last. */
  async function removeBatch(companyId: string, table: string, removed: Record<string, number>): Promise<number> {
    const count = await unitOfWork.run(async (scope) => {
      const count = await remover.removeBatch(scope, table, companyId, batchRows);
      if (count > 0) {
        const now = clock.now();
        await jobs.saveProgress(scope, companyId, { ...removed, [table]: (removed[table] ?? 0) + count }, now.toISOString(), leaseUntil(now));
        await dataVersions.bump(scope, companyId);
      }
      return count;
    });
    // On SQLite a batch runs synchronously and resolves without a turn of the event loop:
    // without this, a background job would hold every request of the process until it ends.
    await yieldToEventLoop();
    return count;
  }

  async function run(companyId: string): Promise<Offboarding> {
    const job = await found(companyId);
    const now = clock.now();
    if (job.state !== 'running' || !(await jobs.claim(companyId, now.toISOString(), leaseUntil(now)))) return publicView(job);
    const removed: Record<string, number> = Object.fromEntries(remover.tables.map((table) => [table, job.removed[table] ?? 0]));
    // Passes over every table until one removes nothing: rows written while a later table was
    // being emptied (an ingest still under way) are caught by the next pass.
    let removedInPass: number;
    do {
      removedInPass = 0;
      for (const table of remover.tables) {
        let count: number;
        while (!background.stopping && (count = await removeBatch(companyId, table, removed)) > 0) {
          removed[table] = (removed[table] ?? 0) + count;
          removedInPass += count;
        }
      }
    } while (removedInPass > 0 && !background.stopping);
    if (background.stopping) return publicView(await found(companyId));
    await jobs.finish(companyId, clock.now().toISOString(), removed);
    return publicView(await found(companyId));
  }

  return {
    async request(companyId, requestedBy) {
      return publicView(await jobs.start(companyId, requestedBy, clock.now().toISOString()));
    },
    run,
    runInBackground: (companyId, onError) => void background.launch({ kind: 'offboarding', companyId }, onError),
    get: async (companyId) => publicView(await found(companyId)),
    keepResuming(onError) {
      background.repeat(JOB_LEASE_MS, async () => (await jobs.running()).map((companyId) => ({ kind: 'offboarding', companyId }) as const), onError);
    },
    async resumeUnfinished() {
      const resumed: Offboarding[] = [];
      for (const companyId of await jobs.running()) resumed.push(await run(companyId));
      return resumed;
    },
  };
}

function publicView(job: StoredOffboarding): Offboarding {
  const { lease_until: _lease, ...shown } = job;
  return shown;
}
