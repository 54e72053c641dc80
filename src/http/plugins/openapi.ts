import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import type { StepType } from '../../domain/steps/step-type.js';
import { withAccessAnswers } from '../schemas/access-answers.js';
import { nameSharedSchemas, sortComponents } from './openapi-components.js';
import { webhookOperations } from './openapi-webhooks.js';

interface OpenApiOperation {
  operationId?: string;
  requestBody?: { required?: boolean };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads an absent body (see optionalObjectBody); the OpenAPI document says so. */
    optionalBody?: boolean;
  }
}

/** One tag per resource; every operation names exactly one of them. */
export const OPENAPI_TAGS = [
  { name: 'events', description: 'Workflow events: read with filters and keyset pages (/v1); ingested by the operator.' },
  { name: 'records', description: 'Workboard records of custom record types: list, read, create and update.' },
  { name: 'record-types', description: 'The record types of the company: their fields and the field UIDs that record bodies use.' },
  {
    name: 'record-tokens',
    description: 'Tokens that may read and update one record only; minted, listed and revoked by a company user.',
  },
  { name: 'steps', description: 'Workflow steps run against a record, such as pdf_create.' },
  {
    name: 'files',
    description: 'Files stored on a record (the PDFs made by pdf_create): listed and downloaded with the same bearer.',
  },
  { name: 'checks', description: "Mailed checks from the company's check provider (the embedded one or Lob)." },
  {
    name: 'webhooks',
    description: 'Outgoing webhooks (Standard Webhooks): the company users register URLs; each change is delivered, signed, at least once.',
  },
  {
    name: 'operator',
    description: 'The operator API under /admin/v1, authorised by WRS_ADMIN_TOKEN: tokens, record types, templates, providers, imports.',
  },
  { name: 'health', description: 'Liveness and readiness probes, without credentials.' },
];

type Responses = Record<string, unknown>;

/**
 * The error answers of a route that produces another media type (an event stream, NDJSON):
 * @fastify/swagger would list them under that type, but every error body is JSON.
 */
function errorsAsJson(responses: Responses | undefined, produces: readonly string[] | undefined): Responses | undefined {
  if (!responses || !produces || produces.includes('application/json')) return responses;
  return Object.fromEntries(
    Object.entries(responses).map(([status, answer]) => {
      const written = answer as { description?: string; content?: unknown };
      if (/^[23]/.test(status) || written.content !== undefined) return [status, answer];
      return [status, { description: written.description, content: { 'application/json': { schema: answer } } }];
    }),
  );
}

/**
 * The OpenAPI 3.1 document is generated from the route schemas that validate requests; nothing
 * about the API is written twice. Security is derived from the path prefix, and with it the
 * 401, 403 and 429 answers of every operation (schemas/access-answers.ts).
 *
 * `servers` is WRS_PUBLIC_URL when set; otherwise `/`, which a docs page resolves against the
 * document's own address (so it works on whatever host and port serve it) and which a generated
 * client replaces with its own base URL.
 */
export async function registerOpenApi(app: FastifyInstance, publicUrl: string | undefined, stepTypes: readonly StepType[]): Promise<void> {
  const optionalBodies = new Set<string>();
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Workflow Records and Events API',
        version: '1.0.0',
        license: { name: 'MIT', identifier: 'MIT' },
        description:
          'Workflow events, workboard records, record tokens, the pdf_create step and mailed checks, ' +
          'scoped to the company in the bearer JWT. Operator routes live under /admin/v1. ' +
          'Every error answer is `{message, code}` with a stable snake_case code.',
      },
      servers: [
        publicUrl === undefined
          ? { url: '/', description: 'the service that serves this document' }
          : { url: publicUrl, description: 'this deployment (WRS_PUBLIC_URL)' },
      ],
      tags: OPENAPI_TAGS,
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'company user JWT or record token' },
          operator: { type: 'http', scheme: 'bearer', description: 'WRS_ADMIN_TOKEN' },
        },
      },
    },
    transform: ({ schema, url, route }) => {
      if (route.config?.optionalBody && schema.operationId) optionalBodies.add(schema.operationId);
      const security = url.startsWith('/admin/') ? [{ operator: [] }] : url.startsWith('/v1/') ? [{ bearer: [] }] : [];
      const isPublicDocument = url === '/v1/openapi.json';
      if (isPublicDocument) return { schema: { ...schema, security: [] } as typeof schema, url };
      const response = withAccessAnswers(url, route.config, errorsAsJson(schema.response as Responses | undefined, schema.produces));
      return { schema: { ...schema, security, response } as typeof schema, url };
    },
    // @fastify/swagger marks every request body required; a route that reads an absent body says so.
    transformObject: (document) => {
      if (!('openapiObject' in document)) return document.swaggerObject;
      const { openapiObject } = document;
      for (const pathItem of Object.values(openapiObject.paths ?? {})) {
        for (const operation of Object.values(pathItem ?? {}) as OpenApiOperation[]) {
          if (operation?.requestBody && operation.operationId && optionalBodies.has(operation.operationId)) operation.requestBody.required = false;
        }
      }
      const named = nameSharedSchemas(openapiObject);
      (openapiObject as { webhooks?: unknown }).webhooks = webhookOperations(named, stepTypes);
      sortComponents(openapiObject);
      return openapiObject;
    },
  });
}
