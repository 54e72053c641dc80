import type { FastifySchemaCompiler } from 'fastify';
import { isPlainObject } from '../../../domain/record-types/definition.js';
import { invalidBody } from '../../../errors/app-error.js';

/**
 * Route validator for bodies whose content the domain checks itself, so that every problem is
 * reported at once in the route's own error shape: only "is it a JSON object" is checked
 * here. The route's schema still documents the body in OpenAPI. Path parameters are strings
 * and pass as they are.
 */
export const objectBodyValidator: FastifySchemaCompiler<unknown> = ({ httpPart }) => {
  return (data: unknown) =>
    httpPart !== 'body' || isPlainObject(data) ? { value: data } : { error: invalidBody('the request body must be a JSON object') };
};

/** As objectBodyValidator, for a body that may also be left out. */
export const optionalObjectBodyValidator: FastifySchemaCompiler<unknown> = ({ httpPart }) => {
  return (data: unknown) =>
    httpPart !== 'body' || data === undefined || data === null || isPlainObject(data)
      ? { value: data }
      : { error: invalidBody('the request body must be a JSON object') };
};
