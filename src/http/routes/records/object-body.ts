import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { isPlainObject } from '../../../domain/record-types/definition.js';
import { invalidBody, type AppError } from '../../../errors/app-error.js';

/**
 * Route validator for bodies whose content the domain checks itself, so that every problem is
 * reported at once in the route's own error shape: only "is it a JSON object" is checked
 * here. The route's schema still documents the body in OpenAPI. Path parameters are strings
 * and pass as they are.
 */
export const objectBodyValidator: FastifySchemaCompiler<unknown> = ({ httpPart }) => {
  // `true`, not `{ value }`: see checkedByTheRoute (validator-compiler.ts).
  return (data: unknown) => (httpPart !== 'body' || isPlainObject(data) ? true : { error: notAnObject(data) });
};

/**
 * For a body that may also be left out: the route options to spread in. Fastify hands a
 * validator `null` for an absent body as for a JSON `null`, so `null` is refused before
 * validation, while the parsed body still tells them apart; an absent body reaches the
 * handler as `undefined`. The route config tells the OpenAPI document the body is optional.
 */
export const optionalObjectBody = {
  config: { optionalBody: true },
  preValidation: async (request: FastifyRequest) => {
    if (request.body === null) throw notAnObject(null);
  },
  validatorCompiler: (({ httpPart }) => {
    return (data: unknown) => {
      if (httpPart !== 'body') return true;
      if (data === null || data === undefined) return { value: undefined };
      return isPlainObject(data) ? true : { error: notAnObject(data) };
    };
  }) satisfies FastifySchemaCompiler<unknown>,
};

function notAnObject(data: unknown): AppError {
  return invalidBody(`the request body must be a JSON object, not ${jsonKind(data)}`);
}

function jsonKind(data: unknown): string {
  if (data === null) return 'null';
  if (Array.isArray(data)) return 'an array';
  return `a ${typeof data}`;
}
