import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';
import { uuidv7 } from '../lib/ids.js';
import { registerErrorHandling } from './error-handler.js';
import { registerAdminAuthentication } from './plugins/admin-auth.js';
import { registerAuthentication } from './plugins/authenticate.js';
import { registerOpenApi } from './plugins/openapi.js';
import { adminTokenRoutes } from './routes/admin/tokens.js';
import { healthRoutes } from './routes/health.js';

export interface BuildAppOptions {
  /** pino logger options, or false for none (tests). */
  logger?: boolean | Record<string, unknown>;
}

const INCOMING_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Builds the HTTP application without listening, so tests can drive it with `inject`. */
export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === undefined
        ? { level: ctx.config.logLevel, redact: ['req.headers.authorization'] }
        : options.logger,
    bodyLimit: ctx.config.bodyLimitBytes,
    trustProxy: ctx.config.trustProxy,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && INCOMING_REQUEST_ID.test(incoming) ? incoming : uuidv7();
    },
    ajv: {
      customOptions: {
        // Unknown properties are errors, never silently dropped; query values are strings to coerce.
        removeAdditional: false,
        coerceTypes: true,
        allErrors: true,
        useDefaults: true,
      },
    },
    return503OnClosing: true,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerErrorHandling(app);
  await registerOpenApi(app);

  await app.register(healthRoutes, { ctx });

  await app.register(
    async (v1) => {
      registerAuthentication(v1, ctx.authenticator);
    },
    { prefix: '/v1' },
  );

  await app.register(
    async (admin) => {
      registerAdminAuthentication(admin, ctx.config.adminToken);
      await admin.register(adminTokenRoutes, { ctx });
    },
    { prefix: '/admin/v1' },
  );

  return app;
}
