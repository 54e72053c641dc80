import type { Config } from './config/config.js';
import { createAuthenticator, type Authenticator } from './domain/auth/authenticator.js';
import { createJwtVerifier, type JwtVerifier } from './domain/auth/jwt-verifier.js';
import { createTokenSigner, type TokenSigner } from './domain/auth/token-signer.js';
import { createChecksService, type ChecksService } from './domain/checks/checks-service.js';
import { createCursorCodec } from './domain/checks/cursor-codec.js';
import { createCheckProviderSettings, type CheckProviderSettings } from './domain/checks/provider-settings.js';
import { createRecordTypesService, type RecordTypesService } from './domain/record-types/record-types-service.js';
import { createRecordTokensService, type RecordTokensService } from './domain/record-tokens/record-tokens-service.js';
import { createRecordsService, type RecordsService } from './domain/records/records-service.js';
import type { RecordsRepository } from './domain/records/records-repository.port.js';
import { createRecordDeletion, type RecordDeletion } from './domain/records/record-deletion.js';
import { createFileService, type FileService } from './domain/files/file-service.js';
import type { BlobStore } from './domain/files/blob-store.port.js';
import { stepRecordFinder } from './domain/steps/record-finder.js';
import { BUILT_IN_STEP_TYPES, createStepRegistry } from './domain/steps/step-registry.js';
import { createStepService, type StepService } from './domain/steps/step-service.js';
import type { StepType } from './domain/steps/step-type.js';
import type { PdfRenderer } from './domain/templates/pdf-renderer.port.js';
import { createTemplateService, type TemplateService } from './domain/templates/template-service.js';
import { createIdempotencyService, type IdempotencyService, type IdempotencyServiceDeps } from './domain/idempotency/idempotency-service.js';
import { systemClock, type Clock } from './lib/clock.js';
import { createSecretBox } from './lib/secret-box.js';
import { createLocalCheckProvider } from './providers/checks/local-check-provider.js';
import { createLobCheckProvider } from './providers/checks/lob/lob-check-provider.js';
import { createLobClient } from './providers/checks/lob/lob-client.js';
import { realSleep, type LobRetryPolicy } from './providers/checks/lob/retry-policy.js';
import { pdfmeTemplateChecker } from './providers/pdf/pdfme-template-checker.js';
import { defaultRenderThreads } from './providers/pdf/render-pool-size.js';
import { createWorkerPoolRenderer } from './providers/pdf/worker-pool-renderer.js';
import { createRateLimitRedis, type RateLimitRedis } from './providers/redis/rate-limit-redis.js';
import { openDatabase, type Database } from './storage/database.js';
import { migrateToLatest } from './storage/migrator.js';
import { primaryReads, standbyReads, type ReadRouting } from './storage/read-routing.js';
import { createCheckProviderCredentialsRepository } from './storage/repositories/check-provider-credentials-repository.js';
import { createChecksRepository } from './storage/repositories/checks-repository.js';
import { createRecordTypesRepository } from './storage/repositories/record-types-repository.js';
import { createRecordTokensRepository } from './storage/repositories/record-tokens-repository.js';
import { createRecordsRepository } from './storage/repositories/records-repository.js';
import { createEventsRepository } from './storage/repositories/events-repository.js';
import { createCompanyDataStore } from './storage/company-data/company-data-store.js';
import { createCompanyExporter, type CompanyExporter } from './domain/company-export/company-exporter.js';
import { createCompanyImporter, type CompanyImporter } from './domain/company-export/company-importer.js';
import { serviceVersion } from './lib/service-version.js';
import { createEventsService, type EventsService } from './domain/events/events-service.js';
import { createFeedCursors } from './domain/events/feed-cursor.js';
import { createFeedFollowers, type FeedFollowers } from './domain/events/feed-followers.js';
import { createFeedSignal } from './storage/feed-signal.js';
import { createBlobsRepository } from './storage/repositories/blobs-repository.js';
import { createFilesRepository } from './storage/repositories/files-repository.js';
import { createTemplatesRepository } from './storage/repositories/templates-repository.js';
import { createUnitOfWork } from './storage/unit-of-work.js';
import { createIdempotencyRepository } from './storage/repositories/idempotency-repository.js';
import type { DataVersions } from './domain/data-versions.port.js';
import type { UnitOfWork } from './domain/unit-of-work.js';
import { createDataVersionsRepository } from './storage/repositories/data-versions-repository.js';
import { createDeliveryWorker, type DeliveryWorker } from './domain/webhooks/delivery-worker.js';
import { createWebhookOutbox, type WebhookOutbox } from './domain/webhooks/outbox.js';
import { createWebhooksService, type WebhooksService } from './domain/webhooks/webhooks-service.js';
import { createHttpWebhookSender } from './providers/webhooks/http-webhook-sender.js';
import { systemAddressResolver } from './providers/webhooks/system-address-resolver.js';
import { createWebhookDeliveriesRepository } from './storage/repositories/webhook-deliveries-repository.js';
import { createWebhooksRepository } from './storage/repositories/webhooks-repository.js';
import type { ErasureService } from './domain/lifecycle/erasure-service.js';
import type { OffboardingService } from './domain/lifecycle/offboarding-service.js';
import { createBackgroundJobs, type BackgroundJobs } from './domain/lifecycle/background-jobs.js';
import { runLifecycleJob } from './domain/lifecycle/run-lifecycle-job.js';
import type { RetentionService } from './domain/retention/retention-service.js';
import { createLifecycleServices } from './lifecycle-thread/lifecycle-services.js';
import { createLifecycleThread, sharesWithThread, sweepingInThread } from './lifecycle-thread/lifecycle-thread.js';
import { createServiceMetrics, type ServiceMetrics } from './observability/metrics/service-metrics.js';
import { createCompanyProfileService, type CompanyProfileService } from './domain/company-profile/company-profile-service.js';
import { createCompanyProfileRepository } from './storage/repositories/company-profile-repository.js';
import { noFastPath, type FastPath } from './fast-path/fast-path.js';
import { createFastPath } from './fast-path/create-fast-path.js';

/**
 * The composition root: every repository, service and provider is built here from the config
 * and handed to the HTTP layer. Nothing else constructs dependencies.
 */
export interface AppContext {
  readonly config: Config;
  readonly database: Database;
  /** Where list reads go: the standby of WRS_DATABASE_READ_URL when it has caught up with the company, else the primary. */
  readonly readRouting: ReadRouting;
  readonly clock: Clock;
  readonly jwtVerifier: JwtVerifier;
  readonly tokenSigner: TokenSigner;
  readonly authenticator: Authenticator;
  readonly events: EventsService;
  /** Live delivery of the change feed to the stream clients of this process. */
  readonly feedFollowers: FeedFollowers;
  readonly recordTypes: RecordTypesService;
  readonly records: RecordsService;
  /** Deletes a record with its tokens, files and the references other records hold to it. */
  readonly recordDeletion: RecordDeletion;
  readonly recordTokens: RecordTokensService;
  readonly pdfRenderer: PdfRenderer;
  readonly blobStore: BlobStore;
  readonly templates: TemplateService;
  readonly files: FileService;
  readonly steps: StepService;
  readonly checks: ChecksService;
  readonly checkProviders: CheckProviderSettings;
  readonly idempotency: IdempotencyService;
  /** Each company's data version: lists name the state they were read from with it. */
  readonly dataVersions: DataVersions;
  /** What the list routes ask before their plain path (src/fast-path/); `noFastPath` with WRS_FAST_PATH=false. */
  readonly fastPath: FastPath;
  readonly webhooks: WebhooksService;
  /** Stores a webhook event's deliveries inside the caller's transaction. */
  readonly webhookOutbox: WebhookOutbox;
  /** Delivers the outbox; `wrs serve` starts it in every serving process, close() stops it. */
  readonly webhookDelivery: DeliveryWorker;
  /** Erasures of a person's data: jobs in bounded batches, resumable, audited. */
  readonly erasures: ErasureService;
  /** The erasures and offboardings this process runs after answering their request. */
  readonly lifecycleJobs: Pick<BackgroundJobs, 'settled'>;
  /** Offboardings of a company: every row and file removed in bounded batches, with a report. */
  readonly offboardings: OffboardingService;
  /** Where every replica counts rate limits (WRS_REDIS_URL); null: each process counts in memory. The HTTP app connects it. */
  readonly rateLimitRedis: RateLimitRedis | null;
  /** Each company's retention period of events, and the sweep that removes older events; `wrs serve` starts it, close() stops it. */
  readonly retention: RetentionService;
  /** Each company's profile (display name, support email): set by the operator, shown by the hosted form. */
  readonly companyProfiles: CompanyProfileService;
  /** This app's Prometheus registry and the observers that feed it (GET /metrics). */
  readonly metrics: ServiceMetrics;
  /** A company's whole data as one NDJSON export, and the import of such a file. */
  readonly companyExporter: CompanyExporter;
  readonly companyImporter: CompanyImporter;
  close(): Promise<void>;
}

export interface AppContextOptions {
  clock?: Clock;
  /** Run migrations before serving (default true). */
  migrate?: boolean;
  /** Renders PDFs; default: a worker-thread pool sized by `pdfWorkers`. */
  pdfRenderer?: PdfRenderer;
  /** Threads of the default renderer; default WRS_PDF_WORKERS, else from the CPUs and memory shared among the serving processes. */
  pdfWorkers?: number;
  /** Overrides of the Lob adapter's retry policy (e.g. a sleep that does not wait, in tests). */
  lobRetry?: Partial<LobRetryPolicy>;
  /** Wraps the records repository (tests interleave concurrent writes with its calls). */
  wrapRecordsRepository?: (repository: RecordsRepository) => RecordsRepository;
  /** Idempotency-Key timings (lease, renewal, cleanup interval); tests shorten them. */
  idempotency?: Pick<IdempotencyServiceDeps, 'leaseMs' | 'leaseRenewalMs' | 'cleanupIntervalMs'>;
  /** Wraps the unit of work (tests run a step before a transaction begins). */
  wrapUnitOfWork?: (unitOfWork: UnitOfWork) => UnitOfWork;
  /** Step types offered besides the built-in ones (tests define their own). */
  stepTypes?: readonly StepType[];
  /** A cluster worker: GET /metrics answers every worker's metrics, gathered by the primary (aggregateWorkerMetrics). */
  metricsAcrossCluster?: boolean;
}

/** Called in the cluster primary, so that any worker answers GET /metrics for all of them. */
export { aggregateWorkerMetrics } from './observability/metrics/cluster-metrics.js';

/** Events per read of a stream's change feed. */
const FEED_STREAM_PAGE_EVENTS = 500;
/** While committed events wait behind an older open PostgreSQL transaction, the feed is read again this soon. */
const FEED_HELD_BACK_RECHECK_MS = 50;

/** Applies pending migrations to the configured database and closes it; answers the names applied. */
export async function migrateDatabase(config: Config): Promise<string[]> {
  const database = openDatabase(config.databaseUrl, config.database);
  try {
    return await migrateToLatest(database.db);
  } finally {
    await database.close();
  }
}

/** The standby's pool, when there is one; it is never migrated (a standby replays the primary's schema). */
function openReadRouting(config: Config, primary: Database): ReadRouting {
  const standby = config.readReplica;
  if (!standby) return primaryReads(primary);
  const database = openDatabase(standby.url, {
    poolSize: standby.poolSize,
    connectTimeoutMs: standby.connectTimeoutMs,
    statementTimeoutMs: config.database.statementTimeoutMs,
  });
  return standbyReads(primary, database, { retryMs: standby.retryMs });
}

export async function createAppContext(config: Config, options: AppContextOptions = {}): Promise<AppContext> {
  const clock = options.clock ?? systemClock;
  const database = openDatabase(config.databaseUrl, config.database);
  try {
    if (options.migrate !== false) await migrateToLatest(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }
  const readRouting = openReadRouting(config, database);
  // The renderer is built further down; its usage is read only when metrics are scraped.
  const metrics = createServiceMetrics(
    { databasePool: () => database.poolUsage(), pdfRenders: () => pdfRenderer.usage() },
    { acrossCluster: options.metricsAcrossCluster === true },
  );
  const jwtVerifier = createJwtVerifier(config.jwt, clock);
  const tokenSigner = createTokenSigner(config.jwt, clock);
  const storageUnitOfWork = createUnitOfWork(database.db);
  const unitOfWork = options.wrapUnitOfWork?.(storageUnitOfWork) ?? storageUnitOfWork;
  const dataVersions = createDataVersionsRepository(database.db);
  const feedSignal = createFeedSignal(database, config.databaseUrl);
  const secretBox = createSecretBox(config.encryptionKey);
  const webhooksRepository = createWebhooksRepository(database.db);
  const deliveriesRepository = createWebhookDeliveriesRepository(database);
  const webhookDelivery = createDeliveryWorker({
    deliveries: deliveriesRepository,
    webhooks: webhooksRepository,
    sender: createHttpWebhookSender({
      allowPrivateAddresses: config.webhooks.allowPrivateUrls,
      // Several webhooks may share a host: each gets its share of the worker's attempts, not of one pool.
      maxSocketsPerHost: config.webhooks.concurrency,
    }),
    secretBox,
    clock,
    settings: config.webhooks,
    observer: metrics.webhookDeliveries,
  });
  const webhookOutbox = createWebhookOutbox({
    webhooks: webhooksRepository,
    deliveries: deliveriesRepository,
    unitOfWork,
    clock,
    onCommitted: () => webhookDelivery.wake(),
  });
  const webhooks = createWebhooksService({
    webhooks: webhooksRepository,
    deliveries: deliveriesRepository,
    secretBox,
    resolver: systemAddressResolver,
    allowPrivateUrls: config.webhooks.allowPrivateUrls,
    maxPerCompany: config.webhooks.maxPerCompany,
    clock,
    onRedeliver: () => webhookDelivery.wake(),
  });
  const eventsRepository = createEventsRepository(database, readRouting);
  const events = createEventsService({
    repository: eventsRepository,
    unitOfWork,
    dataVersions,
    clock,
    cursors: createFeedCursors(config.encryptionKey),
    feedSignal,
    outbox: webhookOutbox,
    ingestObserver: metrics.ingests,
  });
  const feedFollowers = createFeedFollowers({
    events,
    signal: feedSignal,
    pageSize: FEED_STREAM_PAGE_EVENTS,
    heldBackRecheckMs: FEED_HELD_BACK_RECHECK_MS,
    safetyRecheckMs: config.stream.recheckMs,
    // A failed read (the database away) is tried again at the next signal or safety re-check.
    onError: () => undefined,
  });
  const recordTypes = createRecordTypesService({ repository: createRecordTypesRepository(database.db), unitOfWork, dataVersions, clock });
  const builtRecordsRepository = createRecordsRepository(database, readRouting);
  const recordsRepository = options.wrapRecordsRepository?.(builtRecordsRepository) ?? builtRecordsRepository;
  const records = createRecordsService({
    repository: recordsRepository,
    recordTypes,
    unitOfWork,
    dataVersions,
    clock,
    outbox: webhookOutbox,
  });
  const recordTokensRepository = createRecordTokensRepository(database.db);
  const recordTokens = createRecordTokensService({
    repository: recordTokensRepository,
    records,
    recordTypes,
    signer: tokenSigner,
    clock,
    unitOfWork,
    outbox: webhookOutbox,
  });
  const authenticator = createAuthenticator(jwtVerifier, recordTokens);
  const pdfRenderer =
    options.pdfRenderer ??
    createWorkerPoolRenderer({
      workers: options.pdfWorkers ?? config.pdf.workers ?? defaultRenderThreads(config.server.workers),
      rendersPerThread: config.pdf.rendersPerThread,
      threadNice: config.pdf.threadNice,
      isolation: config.pdf.isolation,
      idleShutdownMs: config.pdf.threadIdleMs,
      timeoutMs: config.pdf.timeoutMs,
      queueTimeoutMs: config.pdf.queueTimeoutMs,
      observer: metrics.pdfRenders,
    });
  const blobStore = createBlobsRepository(database.db, clock);
  const templateService = createTemplateService({
    templates: createTemplatesRepository(database.db),
    checker: pdfmeTemplateChecker,
    renderer: pdfRenderer,
    clock,
  });
  const filesRepository = createFilesRepository(database.db);
  const fileService = createFileService({
    unitOfWork,
    files: filesRepository,
    blobs: blobStore,
    clock,
    recordExists: (companyId, recordId) => records.exists(companyId, recordId),
  });
  const recordDeletion = createRecordDeletion({
    records: recordsRepository,
    recordTypes,
    recordTokens: recordTokensRepository,
    files: filesRepository,
    blobs: blobStore,
    unitOfWork,
    dataVersions,
    clock,
    outbox: webhookOutbox,
  });
  const stepService = createStepService({
    registry: createStepRegistry([...BUILT_IN_STEP_TYPES, ...(options.stepTypes ?? [])]),
    tools: {
      findRecord: stepRecordFinder(records),
      templates: templateService,
      renderer: pdfRenderer,
      pdfInputLimitBytes: config.pdf.inputLimitBytes,
      files: fileService,
      clock,
      outbox: webhookOutbox,
    },
  });
  const checksRepository = createChecksRepository(database.db);
  const lobRetry: LobRetryPolicy = {
    maxRetries: config.lob.maxRetries,
    baseDelayMs: config.lob.retryBaseMs,
    budgetMs: config.lob.retryBudgetMs,
    sleep: realSleep,
    ...options.lobRetry,
  };
  const checkProviders = createCheckProviderSettings({
    credentials: createCheckProviderCredentialsRepository(database.db),
    secretBox,
    clock,
    globalLobKey: config.lob.apiKey,
    local: createLocalCheckProvider(checksRepository),
    lob: (apiKey) => createLobCheckProvider(createLobClient({ apiKey, baseUrl: config.lob.baseUrl, timeoutMs: config.lob.timeoutMs, retry: lobRetry, clock })),
  });
  const checks = createChecksService({
    repository: checksRepository,
    providers: checkProviders,
    cursors: createCursorCodec(config.encryptionKey),
    clock,
  });
  const idempotency = createIdempotencyService({ repository: createIdempotencyRepository(database.db), clock, secretBox, ...options.idempotency });
  // On a SQLite file the jobs' batches run in a thread of their own (lifecycle-thread.ts); a
  // context given its own clock or unit of work (tests) keeps them here, where those apply.
  const lifecycleThread =
    sharesWithThread(config.databaseUrl) && !options.clock && !options.wrapUnitOfWork
      ? createLifecycleThread(
          {
            databaseUrl: config.databaseUrl,
            database: config.database,
            encryptionKeyHex: config.encryptionKey.toString('hex'),
            dataLifecycle: config.dataLifecycle,
            retention: config.retention,
          },
          { retentionObserver: metrics.retention, feedChanged: (companyId) => feedSignal.changed(companyId) },
        )
      : undefined;
  const lifecycleJobs = createBackgroundJobs(lifecycleThread ?? { run: (job) => runLifecycleJob(lifecycle, job), stop: async () => undefined });
  const lifecycle = createLifecycleServices({
    database,
    settings: config,
    clock,
    unitOfWork,
    dataVersions,
    background: lifecycleJobs,
    retentionObserver: metrics.retention,
    feedSignal,
  });
  const { erasures, offboardings } = lifecycle;
  const retention = lifecycleThread ? sweepingInThread(lifecycle.retention, lifecycleJobs, config.retention.sweepIntervalMs) : lifecycle.retention;
  const { perCompanyPerMinute, perAddressPerMinute, redis } = config.rateLimit;
  const rateLimitRedis = redis && (perCompanyPerMinute > 0 || perAddressPerMinute > 0) ? createRateLimitRedis(redis) : null;

  const companyData = createCompanyDataStore(database);

  return {
    config,
    database,
    readRouting,
    clock,
    jwtVerifier,
    tokenSigner,
    authenticator,
    events,
    feedFollowers,
    recordTypes,
    records,
    recordDeletion,
    recordTokens,
    pdfRenderer,
    blobStore,
    templates: templateService,
    files: fileService,
    steps: stepService,
    checks,
    checkProviders,
    idempotency,
    dataVersions,
    fastPath: config.fastPath ? createFastPath({ database, reads: readRouting, dataVersions, pageCache: config.pageCache }) : noFastPath,
    webhooks,
    webhookOutbox,
    webhookDelivery,
    retention,
    companyProfiles: createCompanyProfileService(createCompanyProfileRepository(database.db)),
    erasures,
    offboardings,
    lifecycleJobs,
    rateLimitRedis,
    metrics,
    companyExporter: createCompanyExporter({ store: companyData, clock, serviceVersion: serviceVersion() }),
    companyImporter: createCompanyImporter({
      store: companyData,
      unitOfWork,
      dataVersions,
      secretBox,
      afterEventsWritten: (count) => eventsRepository.afterBulkWrite(count),
    }),
    async close() {
      rateLimitRedis?.close();
      await retention.stop();
      await lifecycleJobs.stop();
      await webhookDelivery.stop();
      feedFollowers.close();
      await feedSignal.close();
      await pdfRenderer.close();
      await readRouting.close();
      await database.close();
    },
  };
}

// Moving a SQLite database into PostgreSQL (`wrs copy-database`): the CLI reaches storage only through this root.
export { copySqliteToPostgres, type CopyListener, type CopySummary, type TableRows } from './storage/copy/copy-database.js';
export type { CopiedTable } from './storage/table-registry.js';
export { CopyRefusal } from './storage/copy/copy-refusal.js';
export { withoutPassword } from './storage/copy/postgres-target.js';

// Backing up and restoring a SQLite database (`wrs backup`, `wrs restore`).
export { backupSqlite, type BackupSummary } from './storage/backup/sqlite-backup.js';
export { restoreSqlite, type RestoreSummary } from './storage/backup/sqlite-restore.js';
export { BackupRefusal } from './storage/backup/backup-refusal.js';
