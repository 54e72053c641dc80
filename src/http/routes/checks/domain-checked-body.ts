import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifySchemaCompiler } from 'fastify';
import { AJV_CUSTOM_OPTIONS } from '../../body-check.js';

type Validator = ReturnType<FastifySchemaCompiler<unknown>>;
type RoutePart = Parameters<FastifySchemaCompiler<unknown>>[0];

let compileWithAjv: ((part: RoutePart) => Validator) | undefined;

/**
 * Route validator for a body the domain checks itself, so that every problem is reported at
 * once and in its own words: the body reaches the handler as it came, never coerced. Path
 * parameters and the query string are still checked by Fastify's Ajv compiler with the
 * service's settings. The route's body schema keeps describing the body in OpenAPI.
 */
export const domainCheckedBody: FastifySchemaCompiler<unknown> = (part) => {
  if (part.httpPart === 'body') return (data: unknown) => ({ value: data });
  compileWithAjv ??= AjvCompiler()({}, { customOptions: AJV_CUSTOM_OPTIONS }) as unknown as (part: RoutePart) => Validator;
  return compileWithAjv(part);
};
