import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';

/**
 * The OpenAPI 3.1 document is generated from the route schemas that validate requests; nothing
 * about the API is written twice. Security is derived from the path prefix.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Workflow Records and Events API',
        version: '1.0.0',
        description:
          'Workflow events, workboard records, record tokens, the pdf_create step and mailed checks, ' +
          'scoped to the company in the bearer JWT. Operator routes live under /admin/v1.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'company user JWT or record token' },
          operator: { type: 'http', scheme: 'bearer', description: 'WRS_ADMIN_TOKEN' },
        },
      },
    },
    transform: ({ schema, url }) => {
      const security = url.startsWith('/admin/') ? [{ operator: [] }] : url.startsWith('/v1/') ? [{ bearer: [] }] : [];
      const isPublicDocument = url === '/v1/openapi.json';
      return { schema: { ...schema, security: isPublicDocument ? [] : security } as typeof schema, url };
    },
  });
}
