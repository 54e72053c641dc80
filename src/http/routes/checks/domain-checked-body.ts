import type { FastifySchemaCompiler } from 'fastify';
import { compileRoutePart } from '../../validator-compiler.js';

/**
 * Route validator for a body the domain checks itself, so that every problem is reported at
 * once and in its own words: the body reaches the handler as it came, never coerced. Path
 * parameters and the query string are still checked by Fastify's Ajv compiler with the
 * service's settings. The route's body schema keeps describing the body in OpenAPI.
 */
export const domainCheckedBody: FastifySchemaCompiler<unknown> = (part) => {
  if (part.httpPart === 'body') return () => true;
  return compileRoutePart(part) as ReturnType<FastifySchemaCompiler<unknown>>;
};
