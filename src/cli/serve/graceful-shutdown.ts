import cluster from 'node:cluster';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { stopTracing } from '../../observability/tracing/process-tracing.js';

/** Past the drain bound, this much longer is allowed for closing the database before exiting anyway. */
const CLOSE_GRACE_MS = 5000;

export interface ShutdownTimings {
  /** How long `/readyz` answers 503 while requests are still served, before the server closes. */
  readonly drainMs: number;
  /** Bound on the requests in flight once the server closes. */
  readonly timeoutMs: number;
}

/**
 * On SIGTERM or SIGINT (or, in a cluster worker, when the primary goes away): first leave the
 * load balancer's rotation (`/readyz` answers 503 for `drainMs` while requests are still
 * served, so no request meets a closed port), then stop accepting connections, let in-flight
 * requests finish for up to `timeoutMs` (new requests on open connections get 503), close the
 * database, send the last spans (when tracing) and exit 0. Connections still busy at the bound
 * are cut and the process exits 1, so the log and the exit status say it was not clean.
 * The management listener, when there is one, shares the API's rotation and closes once the
 * API has drained: the probes and metrics answer until then.
 */
export function closeGracefullyOnSignals(app: FastifyInstance, ctx: AppContext, { drainMs, timeoutMs }: ShutdownTimings, management?: FastifyInstance): void {
  let closing = false;
  const shutdown = async (reason: string): Promise<void> => {
    if (closing) return;
    closing = true;
    if (drainMs > 0) {
      app.rotation.leave();
      app.log.info({ reason, drain_ms: drainMs }, 'shutting down: out of rotation (/readyz 503), still serving');
      await new Promise((resolve) => setTimeout(resolve, drainMs));
    }
    app.log.info({ reason, timeout_ms: timeoutMs }, 'shutting down: draining in-flight requests');
    let forced = false;
    const cut = setTimeout(() => {
      forced = true;
      app.log.warn({ timeout_ms: timeoutMs }, 'shutdown bound reached: closing the connections still in use');
      app.server.closeAllConnections();
    }, timeoutMs);
    setTimeout(() => {
      app.log.error('shutdown did not finish: exiting');
      process.exit(1);
    }, timeoutMs + CLOSE_GRACE_MS).unref();
    try {
      await app.close();
    } catch (error) {
      forced = true;
      app.log.error({ err: error }, 'closing the server failed');
    } finally {
      clearTimeout(cut);
    }
    try {
      await management?.close();
    } catch (error) {
      forced = true;
      app.log.error({ err: error }, 'closing the management listener failed');
    }
    try {
      await ctx.close();
    } catch (error) {
      forced = true;
      app.log.error({ err: error }, 'closing the database failed');
    }
    app.log.info({ clean: !forced }, 'stopped');
    // The spans of the requests drained above are still in the exporter's batch.
    await stopTracing();
    process.exit(forced ? 1 : 0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  if (cluster.isWorker) process.on('disconnect', () => void shutdown('the cluster primary went away'));
}
