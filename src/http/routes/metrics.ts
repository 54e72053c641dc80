import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { serviceUnavailable } from '../../errors/app-error.js';
import { registerBearerSecrets } from '../plugins/admin-auth.js';
import type { RateLimiting } from '../plugins/rate-limit.js';

const METRICS_PATH = '/metrics';

/**
 * GET /metrics for Prometheus, readable with WRS_ADMIN_TOKEN or WRS_METRICS_TOKEN. Like the
 * operator API, a scraper with its token is not rate limited (a limit would leave gaps in the
 * graphs), while a request with no or a wrong token is charged to its client address. Hidden
 * from the OpenAPI document: it is for the operator's monitoring, not the API's clients.
 */
export const metricsRoutes: FastifyPluginAsync<{ ctx: AppContext; rateLimiting: RateLimiting }> = async (app, { ctx, rateLimiting }) => {
  const { adminToken, metrics } = ctx.config;
  registerBearerSecrets(app, metrics.token === undefined ? [adminToken] : [adminToken, metrics.token], {
    missing: 'missing metrics token: send "Authorization: Bearer <WRS_METRICS_TOKEN or WRS_ADMIN_TOKEN>"',
    invalid: 'metrics token is invalid',
  });
  rateLimiting.exemptOperator(app);

  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    let text: string;
    try {
      text = await ctx.metrics.scrape();
    } catch (error) {
      // In a cluster, another worker that did not answer in time: the next scrape may well succeed.
      request.log.warn({ err: error }, 'metrics could not be gathered');
      throw serviceUnavailable('the metrics of every serving process could not be gathered; retry shortly', 1);
    }
    return reply.type(ctx.metrics.contentType).send(text);
  });
};
