import type { FastifyPluginAsync } from 'fastify';

/** GET /v1/openapi.json: the document generated from the route schemas (plugins/openapi.ts). */
export const openApiDocumentRoute: FastifyPluginAsync = async (app) => {
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
};
