import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../app-context.js';
import { serviceUnavailable } from '../../errors/app-error.js';
import { errorResponses } from '../schemas/errors.js';
import { withExample } from '../schemas/examples.js';

const Status = Type.Object({ status: Type.String() });

export const healthRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/healthz',
    {
      config: { rateLimit: false },
      schema: {
        operationId: 'getLiveness',
        summary: 'The process is up',
        description: 'Liveness: answers 200 while the process serves requests; no credential.',
        tags: ['health'],
        response: { 200: withExample(Status, { status: 'ok' }, 'the process is up') },
      },
    },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      config: { rateLimit: false },
      schema: {
        operationId: 'getReadiness',
        summary: 'The database answers',
        description:
          'Readiness: 200 when the database answers a ping, else 503 with Retry-After; 503 as well from the moment the ' +
          'process starts shutting down (it still serves requests for WRS_SHUTDOWN_DRAIN_MS), so a load balancer takes ' +
          'it out first; no credential.',
        tags: ['health'],
        response: { 200: withExample(Status, { status: 'ready' }, 'the database answers'), ...errorResponses(503) },
      },
    },
    async () => {
      if (app.rotation.leaving) throw serviceUnavailable('the server is shutting down', 1);
      try {
        await ctx.database.ping();
      } catch {
        throw serviceUnavailable('database is unreachable', 1);
      }
      return { status: 'ready' };
    },
  );
};
