import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { aggregateWorkerMetrics, createAppContext, type AppContext } from '../../app-context.js';
import type { Config } from '../../config/config.js';
import { buildApp } from '../../http/app.js';
import { buildManagementApp } from '../../http/management-app.js';
import { cliConfig } from '../config-from-env.js';
import { runClusterPrimary } from './cluster.js';
import { collectWhenQuiet } from './collect-when-quiet.js';
import { limitHeapGrowth } from './heap-growth.js';
import { stopPretenuring } from './pretenuring.js';
import { closeGracefullyOnSignals } from './graceful-shutdown.js';
import { API_LISTENER, listenError, MANAGEMENT_LISTENER, type ListenSettings } from './listen-errors.js';
import { openingDatabase } from '../database-start-errors.js';
import { createProcessLog } from './process-log.js';
import { seedDemoIntoEmptyDatabase } from '../../demo/seed-demo.js';
import { DEMO_COMPANY_ID, localBaseUrl, printWelcome } from '../welcome.js';

/** `wrs serve`: this process serves, or with WRS_WORKERS > 1 it starts the workers that do. */
export async function serveProcess(): Promise<void> {
  const { config, secretsFile } = cliConfig('may-create');
  limitHeapGrowth(config.server.heapGrowthPercent);
  if (!config.server.allocationSitePretenuring) stopPretenuring();
  if (cluster.isWorker) {
    await serveHttp(await openingDatabase(config.databaseUrl, () => createAppContext(config, { migrate: false, metricsAcrossCluster: true })));
    return new Promise<void>(() => undefined);
  }

  const ctx = await prepare(config);
  if (config.server.workers <= 1) {
    const port = await serveHttp(ctx);
    if (config.env !== 'production') await printWelcome(ctx, localBaseUrl(config.host, port), secretsFile);
    return new Promise<void>(() => undefined);
  }
  aggregateWorkerMetrics();
  return runClusterPrimary({
    workers: config.server.workers,
    shutdownTimeoutMs: config.server.shutdownDrainMs + config.server.shutdownTimeoutMs,
    log: createProcessLog(config.logLevel, 'cluster-primary', config.logFormat),
    isApiListener: (address) => config.management === undefined || address.port !== config.management.port,
    async onFirstListening(address) {
      try {
        if (config.env !== 'production') await printWelcome(ctx, localBaseUrl(config.host, address.port), secretsFile);
      } finally {
        await ctx.close();
      }
    },
  });
}

/**
 * What runs once, in the main process, before any process serves: migrations (in
 * createAppContext) and seeding an empty development database. Cluster workers skip it.
 */
async function prepare(config: Config): Promise<AppContext> {
  const ctx = await openingDatabase(config.databaseUrl, () => createAppContext(config));
  if (config.env !== 'production') await seedDemoIntoEmptyDatabase(ctx, DEMO_COMPANY_ID);
  return ctx;
}

/** When the heap the start or a burst of work grew is given back (collect-when-quiet.ts). */
const QUIET_COLLECTION = { everyMs: 2000, busyUtilization: 0.2, quietUtilization: 0.05 };

/**
 * Serves the API from this process until a signal closes it, and the probes and metrics on the
 * management listener too when WRS_MANAGEMENT_PORT is set; returns the API's port (the one
 * chosen by the system when PORT=0). The API listens first, so a balancer checking the
 * management port never finds the process ready before the API is.
 * An address that cannot be listened on closes what was opened and is a configuration error.
 */
async function serveHttp(ctx: AppContext): Promise<number> {
  const app = await buildApp(ctx);
  const { host, port, management: managementListener } = ctx.config;
  const management = managementListener && (await buildManagementApp(ctx, app.rotation));
  try {
    await listenOn(app, host, port, API_LISTENER);
    if (management) await listenOn(management, managementListener.host, managementListener.port, MANAGEMENT_LISTENER);
  } catch (error) {
    await management?.close().catch(() => undefined);
    await app.close().catch(() => undefined);
    await ctx.close().catch(() => undefined);
    throw error;
  }
  closeGracefullyOnSignals(app, ctx, { drainMs: ctx.config.server.shutdownDrainMs, timeoutMs: ctx.config.server.shutdownTimeoutMs }, management);
  // Every serving process delivers webhooks; leases keep each attempt to one of them.
  ctx.webhookDelivery.start((error) => app.log.error({ err: error }, 'webhook delivery worker failed; it retries at its next poll'));
  // Every serving process sweeps; on PostgreSQL an advisory lock keeps each sweep to one of them
  // (on SQLite, cluster workers share each sweep's batches through the one writer lock).
  ctx.retention.start((error) => app.log.error({ err: error }, 'retention sweep of events failed; it is tried again at the next interval'));
  ctx.erasures.keepResuming((error) => app.log.error({ err: error }, 'an erasure failed; it is tried again once its lease lapses'));
  ctx.offboardings.keepResuming((error) => app.log.error({ err: error }, 'an offboarding failed; it is tried again once its lease lapses'));
  ctx.readRouting.onStandbyChange((change) => {
    if (change.state === 'down')
      app.log.warn({ err: change.error }, `read standby failed; list reads go to the primary, the standby is tried again in ${change.retryMs} ms`);
    else app.log.info('read standby answers again; list reads go to it when it has caught up');
  });
  collectWhenQuiet(QUIET_COLLECTION);
  return (app.server.address() as AddressInfo).port;
}

async function listenOn(app: FastifyInstance, host: string, port: number, names: ListenSettings): Promise<void> {
  try {
    await app.listen({ host, port });
  } catch (error) {
    throw listenError(error, host, port, names);
  }
}
