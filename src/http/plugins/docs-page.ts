import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { DOCS_CONTENT_SECURITY_POLICY } from './response-headers.js';

export const DOCS_PATH = '/docs';
const OPENAPI_DOCUMENT_PATH = '/v1/openapi.json';

/**
 * An interactive reference of the OpenAPI document (Swagger UI), its scripts, styles and images
 * all served from the package by the service, so it works offline and behind a firewall.
 */
export async function registerDocsPage(app: FastifyInstance): Promise<void> {
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    // No badge fetched from validator.swagger.io.
    validatorUrl: false,
    staticCSP: DOCS_CONTENT_SECURITY_POLICY,
    uiHooks: {
      // The page loads the document from `<prefix>/json`; sending it on to the API's own
      // document keeps one address for it.
      onRequest: async (request, reply) => {
        const path = request.url.split('?', 1)[0];
        if (path === `${DOCS_PATH}/json`) return reply.redirect(OPENAPI_DOCUMENT_PATH);
      },
    },
  });
}
