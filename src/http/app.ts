import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';
import { frameworkErrorHandler, MAX_PATH_PARAM_LENGTH, registerErrorHandling } from './error-handler.js';
import { loggerOptions } from './logging.js';
import { AJV_CUSTOM_OPTIONS, buildValidator } from './validator-compiler.js';
import { registerAdminAuthentication } from './plugins/admin-auth.js';
import { registerBodyMediaRules } from './plugins/body-media.js';
import { registerAuthentication } from './plugins/authenticate.js';
import { registerCompanyPathRule } from './plugins/company-path.js';
import { registerConnectionLimits, registerDraining } from './plugins/connections.js';
import { registerCompression } from './plugins/compression.js';
import { registerCors } from './plugins/cors.js';
import { registerDocsPage } from './plugins/docs-page.js';
import { registerIdempotency } from './plugins/idempotency.js';
import { registerOpenApi } from './plugins/openapi.js';
import { registerRateLimiting, type RateLimitObserver } from './plugins/rate-limit.js';
import { registerResponseHeaders, requestIdOf, securityHeaders } from './plugins/response-headers.js';
import { registerTextInputRules } from './plugins/text-input.js';
import { registerWebPages } from './plugins/web-pages.js';
import { adminErasureRoutes } from './routes/admin/erasures.js';
import { adminOffboardingRoutes } from './routes/admin/offboarding.js';
import { adminTokenRoutes } from './routes/admin/tokens.js';
import { adminCompanyExportRoutes } from './routes/admin/company-export.js';
import { adminChecksRoutes } from './routes/checks/admin-checks.js';
import { adminCheckProviderRoutes } from './routes/checks/admin-providers.js';
import { listChecksRoutes } from './routes/checks/list-checks.js';
import { fileRoutes } from './routes/files/files.js';
import { listFileRoutes } from './routes/files/list-files.js';
import { recordTypeRoutes } from './routes/record-types/record-types.js';
import { stepRoutes } from './routes/steps/steps.js';
import { adminTemplateRoutes } from './routes/templates/admin-templates.js';
import { templateRoutes } from './routes/templates/templates.js';
import { adminRecordImportRoutes } from './routes/records/admin-records-import.js';
import { adminRecordTypeRoutes } from './routes/records/admin-record-types.js';
import { recordTokenRoutes } from './routes/record-tokens/record-tokens.js';
import { recordRoutes } from './routes/records/records.js';
import { adminDeleteRecordRoutes, deleteRecordRoutes } from './routes/records/delete-record.js';
import { adminEventIngestRoutes } from './routes/events/ingest-events.js';
import { listEventsRoutes } from './routes/events/list-events.js';
import { eventTypeRoutes } from './routes/events/event-types.js';
import { eventStreamRoutes } from './routes/events/stream.js';
import { healthRoutes } from './routes/health.js';
import { openApiDocumentRoute } from './routes/openapi-document.js';
import { metricsRoutes } from './routes/metrics.js';
import { adminWebhookRoutes } from './routes/webhooks/admin-webhooks.js';
import { adminRetentionRoutes } from './routes/retention/admin-retention.js';
import { adminCompanyProfileRoutes } from './routes/admin/company-profile.js';
import { webhookDeliveryRoutes } from './routes/webhooks/deliveries.js';
import { webhookRoutes } from './routes/webhooks/webhooks.js';
import { parseQueryString, registerQueryEncodingCheck } from './query-string.js';
import { serverTimeoutOptions } from './server-options.js';

export interface BuildAppOptions {
  /** pino logger options, or false for none (tests). */
  logger?: boolean | Record<string, unknown>;
  /** Told of requests served uncounted because the rate-limit store failed, besides the metrics (tests). */
  rateLimitObserver?: RateLimitObserver;
}

/** Builds the HTTP application without listening, so tests can drive it with `inject`. */
export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.logger === undefined ? loggerOptions(ctx.config) : { logger: options.logger }),
    bodyLimit: ctx.config.bodyLimitBytes,
    trustProxy: ctx.config.trustProxy,
    genReqId: requestIdOf,
    ajv: { customOptions: AJV_CUSTOM_OPTIONS },
    schemaController: { compilersFactory: { buildValidator } },
    // Draining answers with the service's own 503 body (plugins/connections.ts).
    return503OnClosing: false,
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH, querystringParser: parseQueryString },
    frameworkErrors: frameworkErrorHandler(securityHeaders(ctx.config.browser)),
    ...serverTimeoutOptions(ctx.config.server),
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Hooks that run for every request are plain functions calling `done`: an async hook costs a
  // promise and a turn of the microtask queue per request, which adds up on cheap reads.
  registerResponseHeaders(app, ctx.config.browser);
  app.addHook('onResponse', ctx.metrics.requests.onResponse);
  registerConnectionLimits(app, ctx.config.connections, ctx.config.trustProxy);
  registerErrorHandling(app, (error) => ctx.database.unavailability(error));
  registerBodyMediaRules(app);
  registerQueryEncodingCheck(app);
  registerDraining(app);
  registerCors(app, ctx.config.browser.corsOrigins);
  const rateLimiting = await registerRateLimiting(app, ctx.config.rateLimit, ctx.rateLimitRedis, {
    onStoreError: (error) => {
      ctx.metrics.rateLimitStore.storeFailed();
      options.rateLimitObserver?.onStoreError?.(error);
    },
  });
  // Before compression and OpenAPI: it keeps answers as sent, and documents the routes it serves.
  registerIdempotency(app, ctx.idempotency);
  // After idempotency: a route's text is checked before its key is admitted.
  registerTextInputRules(app);
  await registerCompression(app);
  await registerOpenApi(app, ctx.config.publicUrl, ctx.steps.registry.types);
  await registerDocsPage(app);
  await registerWebPages(app);

  await app.register(healthRoutes, { ctx });
  await app.register(openApiDocumentRoute);
  await app.register(metricsRoutes, { ctx, rateLimiting });

  await app.register(
    async (v1) => {
      registerAuthentication(v1, ctx.authenticator, ctx.records.typeIdOf, ctx.config.adminToken);
      rateLimiting.limitByIdentity(v1);
      await v1.register(listEventsRoutes, { ctx });
      await v1.register(eventStreamRoutes, { ctx });
      await v1.register(eventTypeRoutes, { ctx });
      await v1.register(recordRoutes, { ctx });
      await v1.register(deleteRecordRoutes, { ctx });
      await v1.register(recordTokenRoutes, { ctx });
      await v1.register(listChecksRoutes, { ctx });
      await v1.register(stepRoutes, { ctx });
      await v1.register(fileRoutes, { ctx });
      await v1.register(listFileRoutes, { ctx });
      await v1.register(recordTypeRoutes, { ctx });
      await v1.register(templateRoutes, { ctx });
      await v1.register(webhookRoutes, { ctx });
      await v1.register(webhookDeliveryRoutes, { ctx });
    },
    { prefix: '/v1' },
  );

  await app.register(
    async (admin) => {
      registerAdminAuthentication(admin, ctx.config.adminToken);
      registerCompanyPathRule(admin);
      rateLimiting.exemptOperator(admin);
      await admin.register(adminTokenRoutes, { ctx });
      await admin.register(adminEventIngestRoutes, { ctx });
      await admin.register(adminChecksRoutes, { ctx });
      await admin.register(adminCheckProviderRoutes, { ctx });
      await admin.register(adminTemplateRoutes, { ctx });
      await admin.register(adminRecordTypeRoutes, { ctx });
      await admin.register(adminRecordImportRoutes, { ctx });
      await admin.register(adminDeleteRecordRoutes, { ctx });
      await admin.register(adminRetentionRoutes, { ctx });
      await admin.register(adminCompanyProfileRoutes, { ctx });
      await admin.register(adminWebhookRoutes, { ctx });
      await admin.register(adminCompanyExportRoutes, { ctx });
      await admin.register(adminErasureRoutes, { ctx });
      await admin.register(adminOffboardingRoutes, { ctx });
    },
    { prefix: '/admin/v1' },
  );

  return app;
}
