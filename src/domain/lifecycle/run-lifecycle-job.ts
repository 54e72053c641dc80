import type { RetentionService } from '../retention/retention-service.js';
import type { ErasureService } from './erasure-service.js';
import type { LifecycleJob } from './lifecycle-job.js';
import type { OffboardingService } from './offboarding-service.js';

export interface LifecycleJobServices {
  readonly erasures: Pick<ErasureService, 'run'>;
  readonly offboardings: Pick<OffboardingService, 'run'>;
  readonly retention: Pick<RetentionService, 'sweep'>;
}

/** The one place a job description becomes the service call that does it, whichever thread runs it. */
export function runLifecycleJob(services: LifecycleJobServices, job: LifecycleJob): Promise<unknown> {
  switch (job.kind) {
    case 'offboarding':
      return services.offboardings.run(job.companyId);
    case 'erasure':
      return services.erasures.run(job.companyId, job.erasureId);
    case 'retention-sweep':
      return services.retention.sweep();
  }
}
