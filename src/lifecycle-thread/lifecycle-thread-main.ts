import { parentPort, workerData } from 'node:worker_threads';
import { createBackgroundJobs } from '../domain/lifecycle/background-jobs.js';
import { runLifecycleJob } from '../domain/lifecycle/run-lifecycle-job.js';
import { systemClock } from '../lib/clock.js';
import { openDatabase } from '../storage/database.js';
import { createDataVersionsRepository } from '../storage/repositories/data-versions-repository.js';
import { createUnitOfWork } from '../storage/unit-of-work.js';
import { createLifecycleServices, type LifecycleServices } from './lifecycle-services.js';
import { toThreadError, type FromLifecycleThread, type LifecycleThreadData, type ToLifecycleThread } from './lifecycle-thread-protocol.js';

/**
 * The lifecycle thread's side: its own connection to the SQLite file, the same services as the
 * serving thread's (lifecycle-services.ts), and each posted job run by them. Jobs interleave here
 * as they would in the serving thread; stopping ends them after their current batch.
 */
export function runLifecycleThread(): void {
  const port = parentPort;
  if (!port) throw new Error('the lifecycle thread runs in a worker thread');
  const data = workerData as LifecycleThreadData;
  const post = (message: FromLifecycleThread) => port.postMessage(message);
  const database = openDatabase(data.databaseUrl, data.database);
  const background = createBackgroundJobs({ run: (job) => runLifecycleJob(services, job), stop: async () => undefined });
  const services: LifecycleServices = createLifecycleServices({
    database,
    settings: { encryptionKey: Buffer.from(data.encryptionKeyHex, 'hex'), dataLifecycle: data.dataLifecycle, retention: data.retention },
    clock: systemClock,
    unitOfWork: createUnitOfWork(database.db),
    dataVersions: createDataVersionsRepository(database.db),
    background,
    retentionObserver: {
      removed: (events) => post({ type: 'retention-removed', events }),
      oldestKept: (createdAt) => post({ type: 'retention-oldest-kept', createdAt }),
    },
    feedSignal: { changed: (companyId) => post({ type: 'feed-changed', companyId }) },
  });

  port.on('message', (message: ToLifecycleThread) => {
    switch (message.type) {
      case 'run': {
        let failure: unknown;
        let failed = false;
        void background
          .launch(message.job, (error) => {
            failed = true;
            failure = error;
          })
          .then(() => post({ type: 'ended', seq: message.seq, ...(failed ? { error: toThreadError(failure) } : {}) }));
        return;
      }
      case 'stop':
        void (async () => {
          await services.retention.stop();
          await background.stop();
          await database.close();
          post({ type: 'ended', seq: message.seq });
        })();
        return;
    }
  });
}
