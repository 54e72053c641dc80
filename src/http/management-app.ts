import Fastify, { type FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { BuildAppOptions } from './app.js';
import { frameworkErrorHandler, registerErrorHandling } from './error-handler.js';
import { loggerOptions } from './logging.js';
import { limitConnectionsPerAddress, registerDraining, type Rotation } from './plugins/connections.js';
import { registerRateLimiting } from './plugins/rate-limit.js';
import { registerResponseHeaders, requestIdOf, securityHeaders } from './plugins/response-headers.js';
import { healthRoutes } from './routes/health.js';
import { metricsRoutes } from './routes/metrics.js';
import { serverTimeoutOptions } from './server-options.js';

/**
 * The management listener (WRS_MANAGEMENT_PORT): `/healthz`, `/readyz` and `/metrics` on a
 * port of their own, so a load balancer's checks and Prometheus still get in while every
 * connection the API allows is taken. The answers and credentials are those of the API's
 * listener (the same routes and rules: a request with a wrong metrics token is charged to its
 * address, counted here in this process's memory), and `/readyz` follows the API's
 * `rotation`, so a process that starts shutting down leaves on both at once. None of the API's
 * connections count here; this listener's own are bounded per client address
 * (WRS_MAX_CONNECTIONS_PER_ADDRESS, by the TCP peer: monitors connect directly).
 * Does not listen: the caller does.
 */
export async function buildManagementApp(ctx: AppContext, rotation: Rotation, options: Pick<BuildAppOptions, 'logger'> = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.logger === undefined ? loggerOptions(ctx.config) : { logger: options.logger }),
    genReqId: requestIdOf,
    return503OnClosing: false,
    frameworkErrors: frameworkErrorHandler(securityHeaders(ctx.config.browser)),
    ...serverTimeoutOptions(ctx.config.server),
  });
  registerResponseHeaders(app, ctx.config.browser);
  if (ctx.config.connections.perAddress > 0) limitConnectionsPerAddress(app, ctx.config.connections.perAddress);
  registerErrorHandling(app, (error) => ctx.database.unavailability(error));
  registerDraining(app, rotation);
  // Not in Redis: the API's budgets and Redis connection are its own.
  const rateLimiting = await registerRateLimiting(app, ctx.config.rateLimit, null);
  await app.register(healthRoutes, { ctx });
  await app.register(metricsRoutes, { ctx, rateLimiting });
  return app;
}
