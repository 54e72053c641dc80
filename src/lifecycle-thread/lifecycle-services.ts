import type { DataLifecycleSettings } from '../config/data-lifecycle.js';
import type { RetentionSettings } from '../config/retention.js';
import type { DataVersions } from '../domain/data-versions.port.js';
import type { FeedSignal } from '../domain/events/feed-signal.port.js';
import type { BackgroundJobs } from '../domain/lifecycle/background-jobs.js';
import { createErasureService, type ErasureService } from '../domain/lifecycle/erasure-service.js';
import { createOffboardingService, type OffboardingService } from '../domain/lifecycle/offboarding-service.js';
import { createSubjectHasher } from '../domain/lifecycle/subject-hash.js';
import type { RetentionObserver } from '../domain/retention/retention-observer.port.js';
import { createRetentionService, type RetentionService } from '../domain/retention/retention-service.js';
import type { UnitOfWork } from '../domain/unit-of-work.js';
import type { Clock } from '../lib/clock.js';
import { createSecretBox } from '../lib/secret-box.js';
import type { Database } from '../storage/database.js';
import { createCompanyDataRemover } from '../storage/repositories/company-data-remover.js';
import { createErasuresRepository } from '../storage/repositories/erasures-repository.js';
import { createOffboardingsRepository } from '../storage/repositories/offboardings-repository.js';
import { createRetentionRepository } from '../storage/repositories/retention-repository.js';

/** The part of the config the lifecycle jobs read (a thread that runs them is given only this). */
export interface LifecycleSettings {
  readonly encryptionKey: Buffer;
  readonly dataLifecycle: DataLifecycleSettings;
  readonly retention: RetentionSettings;
}

export interface LifecycleServicesDeps {
  readonly database: Database;
  readonly settings: LifecycleSettings;
  readonly clock: Clock;
  readonly unitOfWork: UnitOfWork;
  readonly dataVersions: DataVersions;
  readonly background: BackgroundJobs;
  readonly retentionObserver?: RetentionObserver;
  readonly feedSignal?: Pick<FeedSignal, 'changed'>;
}

export interface LifecycleServices {
  readonly erasures: ErasureService;
  readonly offboardings: OffboardingService;
  readonly retention: RetentionService;
}

/**
 * The erasure, offboarding and retention services over a database: built the same way by the
 * composition root (app-context.ts) and by the thread that runs the jobs of a SQLite serving
 * process (lifecycle-thread-main.ts), so both run the one job code.
 */
export function createLifecycleServices(deps: LifecycleServicesDeps): LifecycleServices {
  const { database, settings, clock, unitOfWork, dataVersions, background } = deps;
  const remover = createCompanyDataRemover(database.db);
  const { batchRows } = settings.dataLifecycle;
  return {
    erasures: createErasureService({
      jobs: createErasuresRepository(database.db),
      remover,
      unitOfWork,
      dataVersions,
      secretBox: createSecretBox(settings.encryptionKey),
      subjectHash: createSubjectHasher(settings.encryptionKey),
      clock,
      batchRows,
      background,
    }),
    offboardings: createOffboardingService({
      jobs: createOffboardingsRepository(database.db),
      remover,
      unitOfWork,
      dataVersions,
      clock,
      batchRows,
      background,
    }),
    retention: createRetentionService({
      repository: createRetentionRepository(database),
      unitOfWork,
      dataVersions,
      clock,
      observer: deps.retentionObserver,
      feedSignal: deps.feedSignal,
      settings: settings.retention,
    }),
  };
}
