import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { invalidBody, invalidQuery, type AppError } from '../errors/app-error.js';

const OPERATOR_SUFFIX = /^(.+)__(contains|gt|gte|lt|lte)$/;

/**
 * Turns schema-validation failures of a query string into one 400 that names each parameter:
 * unknown names, an operator suffix the parameter does not take, repeats and bad values.
 */
export function queryValidationError(
  failures: FastifySchemaValidationError[],
  query: Record<string, unknown>,
  knownParams: ReadonlySet<string>,
): AppError {
  const params: string[] = [];
  const reasons: string[] = [];
  for (const failure of failures) {
    const unknownName = failure.params?.additionalProperty as string | undefined;
    const name = unknownName ?? failure.instancePath.replace(/^\//, '').split('/')[0] ?? '';
    if (params.includes(name)) continue;
    params.push(name);
    reasons.push(describe(name, failure, query, knownParams, unknownName !== undefined));
  }
  return invalidQuery(reasons.join('; '), params);
}

function describe(
  name: string,
  failure: FastifySchemaValidationError,
  query: Record<string, unknown>,
  knownParams: ReadonlySet<string>,
  isUnknown: boolean,
): string {
  if (isUnknown) {
    const suffix = OPERATOR_SUFFIX.exec(name);
    if (suffix && knownParams.has(suffix[1]!)) {
      return `query parameter '${suffix[1]}' does not accept the __${suffix[2]} operator`;
    }
    return `unknown query parameter '${name}'`;
  }
  if (Array.isArray(query[name])) return `query parameter '${name}' may be given only once`;
  return `query parameter '${name}' ${failure.message ?? 'is invalid'}`;
}

/** Turns schema-validation failures of a JSON body into one 400 naming each field at fault. */
export function bodyValidationError(failures: FastifySchemaValidationError[], context: string): AppError {
  const reasons = failures.map((failure) => {
    const path = failure.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const at = (name: string) => (path ? `${path}.${name}` : name);
    if (failure.keyword === 'additionalProperties') return `unknown field '${at(String(failure.params.additionalProperty))}'`;
    if (failure.keyword === 'required') return `missing field '${at(String(failure.params.missingProperty))}'`;
    return path ? `field '${path}' ${failure.message ?? 'is invalid'}` : `${context} ${failure.message ?? 'is invalid'}`;
  });
  return invalidBody(`invalid ${context}: ${[...new Set(reasons)].join('; ')}`);
}
