import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { notFound } from '../../errors/app-error.js';
import type { BackgroundJobs } from './background-jobs.js';
import type { Clock } from '../../lib/clock.js';
import { uuidv7 } from '../../lib/ids.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { DataVersions } from '../data-versions.port.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { Erasure, Requester, StoredErasure } from './erasure.js';
import { erasedUserId, type ErasureRequest } from './erasure-request.js';
import { JOB_LEASE_MS, leaseUntil } from './job-lease.js';
import type { CompanyDataRemover, ErasuresRepository } from './lifecycle-jobs.port.js';

export interface ErasureService {
  /** Records the request (or finds the same person's running erasure); the job is run by `run`. */
  request(companyId: string, body: ErasureRequest, requestedBy: Requester): Promise<{ erasure: Erasure; created: boolean }>;
  /**
   * Runs the job's remaining batches and answers it. When another process holds the job, it
   * answers the job as it stands (still running) without waiting.
   */
  run(companyId: string, id: string): Promise<Erasure>;
  /** Runs it after answering: errors go to `onError`, and the next service start continues it. */
  runInBackground(companyId: string, id: string, onError: (error: unknown) => void): void;
  get(companyId: string, id: string): Promise<Erasure>;
  list(companyId: string): Promise<Erasure[]>;
  /**
   * What `wrs serve` starts: every unfinished erasure continued now and once a lease period
   * after, so the job of a process that died (on this replica or another) is taken over soon
   * after its lease lapses (one still leased by a live process is left to it).
   */
  keepResuming(onError: (error: unknown) => void): void;
  /** Continues every unfinished erasure whose lease has lapsed (a crashed process's), here and now, and answers them. */
  resumeUnfinished(): Promise<Erasure[]>;
}

export interface ErasureServiceDeps {
  jobs: ErasuresRepository;
  remover: CompanyDataRemover;
  unitOfWork: UnitOfWork;
  dataVersions: DataVersions;
  secretBox: SecretBox;
  subjectHash: (companyId: string, field: string, value: string) => string;
  clock: Clock;
  /** Rows per transaction (WRS_LIFECYCLE_BATCH_ROWS). */
  batchRows: number;
  /** Runs jobs after the request that asked for them; stops them between batches on close. */
  background: BackgroundJobs;
}

const FIELD = 'user_id';
const sealContext = (companyId: string, id: string) => `erasure:${companyId}:${id}`;

export function createErasureService(deps: ErasureServiceDeps): ErasureService {
  const { jobs, remover, unitOfWork, dataVersions, secretBox, clock, batchRows, background } = deps;

  async function found(companyId: string, id: string): Promise<StoredErasure> {
    const job = await jobs.get(companyId, id);
    if (!job) throw notFound(`company '${companyId}' has no erasure '${id}'`);
    return job;
  }

  /** One transaction: a batch of events, then of tokens once the events are gone; the version bumped last. */
  async function removeBatch(companyId: string, id: string, userId: string) {
    return unitOfWork.run(async (scope) => {
      const events = await remover.removeUserEvents(scope, companyId, userId, batchRows);
      const recordTokens = events < batchRows ? await remover.removeUserRecordTokens(scope, companyId, userId, batchRows - events) : 0;
      const now = clock.now();
      if (events + recordTokens > 0) {
        await jobs.addProgress(scope, companyId, id, { events, recordTokens }, now.toISOString(), leaseUntil(now));
        await dataVersions.bump(scope, companyId);
      }
      return events + recordTokens;
    });
  }

  async function run(companyId: string, id: string): Promise<Erasure> {
    const job = await found(companyId, id);
    const now = clock.now();
    if (job.state !== 'running' || job.subject_sealed === null) return publicView(job);
    if (!(await jobs.claim(companyId, id, now.toISOString(), leaseUntil(now)))) return publicView(job);
    const userId = secretBox.open(job.subject_sealed, sealContext(companyId, id));
    let removed: number;
    do {
      // Each batch commits on its own, so reads and ingest of the company go on between them.
      if (background.stopping) return publicView(await found(companyId, id));
      removed = await removeBatch(companyId, id, userId);
      // On SQLite a batch runs synchronously and resolves without a turn of the event loop:
      // without this, a background job would hold every request of the process until it ends.
      await yieldToEventLoop();
    } while (removed > 0);
    await jobs.finish(companyId, id, clock.now().toISOString());
    return publicView(await found(companyId, id));
  }

  return {
    async request(companyId, body, requestedBy) {
      const userId = erasedUserId(body);
      const id = uuidv7(clock.now().getTime());
      const { erasure, created } = await jobs.start({
        companyId,
        id,
        subjectHash: deps.subjectHash(companyId, FIELD, userId),
        subjectSealed: secretBox.seal(userId, sealContext(companyId, id)),
        requestedBy,
        at: clock.now().toISOString(),
      });
      return { erasure: publicView(erasure), created };
    },
    run,
    runInBackground: (companyId, id, onError) => void background.launch({ kind: 'erasure', companyId, erasureId: id }, onError),
    get: async (companyId, id) => publicView(await found(companyId, id)),
    list: async (companyId) => (await jobs.list(companyId)).map(publicView),
    keepResuming(onError) {
      background.repeat(
        JOB_LEASE_MS,
        async () => (await jobs.running()).map(({ companyId, id }) => ({ kind: 'erasure', companyId, erasureId: id }) as const),
        onError,
      );
    },
    async resumeUnfinished() {
      const resumed: Erasure[] = [];
      for (const { companyId, id } of await jobs.running()) resumed.push(await run(companyId, id));
      return resumed;
    },
  };
}

function publicView(job: StoredErasure): Erasure {
  const { subject_sealed: _sealed, lease_until: _lease, ...shown } = job;
  return shown;
}
