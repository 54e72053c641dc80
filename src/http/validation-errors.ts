import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { invalidBody, invalidQuery, type AppError } from '../errors/app-error.js';
import { boundedList, namesWithMore } from '../errors/item-problems.js';
import { SCHEMA_PROBLEM_WORDS } from '../errors/schema-problem-words.js';
import { clipped } from '../lib/text.js';
import { unknownParameterProblem } from '../domain/operator-suffix.js';

/**
 * Turns schema-validation failures of a query string into one 400 that names each parameter:
 * unknown names, an operator suffix the parameter does not take, repeats and bad values. At
 * most MAX_LISTED_PROBLEMS are named, and the message says how many more there are.
 */
export function queryValidationError(failures: FastifySchemaValidationError[], query: Record<string, unknown>, knownParams: ReadonlySet<string>): AppError {
  const byParam = new Map<string, FastifySchemaValidationError[]>();
  for (const failure of failures) {
    const unknownName = failure.params?.additionalProperty as string | undefined;
    const name = unknownName ?? failure.instancePath.replace(/^\//, '').split('/')[0] ?? '';
    const group = byParam.get(name);
    if (group) group.push(failure);
    else byParam.set(name, [failure]);
  }
  const reasons = [...byParam].map(([name, group]) => describeParam(name, group, query, knownParams));
  return invalidQuery(namesWithMore(reasons, '; '), boundedList([...byParam.keys()]).listed);
}

function describeParam(name: string, group: FastifySchemaValidationError[], query: Record<string, unknown>, knownParams: ReadonlySet<string>): string {
  if (group[0]!.keyword === 'additionalProperties') {
    return unknownParameterProblem(name, knownParams);
  }
  if (Array.isArray(query[name])) return `query parameter '${name}' may be given only once`;
  return `query parameter '${name}' ${valueProblem(group)}`;
}

/**
 * Turns schema-validation failures of a JSON body into one 400 naming each field at fault,
 * at most MAX_LISTED_PROBLEMS of them (the message says how many more).
 */
export function bodyValidationError(failures: FastifySchemaValidationError[], context: string): AppError {
  // Keyed so that each unknown or missing field, and each bad value, is named once.
  const problems = new Map<string, { path: string; failures: FastifySchemaValidationError[]; reason?: string }>();
  for (const failure of failures) {
    const path = failure.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const at = (name: string) => clipped(path ? `${path}.${name}` : name);
    if (failure.keyword === 'additionalProperties') {
      const reason = SCHEMA_PROBLEM_WORDS.unknown('field', at(String(failure.params.additionalProperty)));
      problems.set(reason, { path, failures: [], reason });
    } else if (failure.keyword === 'required') {
      const reason = `missing field '${at(String(failure.params.missingProperty))}'`;
      problems.set(reason, { path, failures: [], reason });
    } else {
      const key = `value ${path}`;
      const entry = problems.get(key);
      if (entry) entry.failures.push(failure);
      else problems.set(key, { path, failures: [failure] });
    }
  }
  const reasons = [...problems.values()].map(
    ({ path, failures: group, reason }) => reason ?? (path ? `field '${clipped(path)}' ${valueProblem(group)}` : `${context} ${valueProblem(group)}`),
  );
  return invalidBody(`invalid ${context}: ${namesWithMore(reasons, '; ')}`);
}

/**
 * What is wrong with one value. An enum, or a union of constants (how TypeBox writes
 * `Union([Literal(...), ...])`), names the values it allows; anything else says Ajv's words.
 */
function valueProblem(failures: FastifySchemaValidationError[]): string {
  const allowed: unknown[] = [];
  let enumerated = false;
  let other: FastifySchemaValidationError | undefined;
  for (const failure of failures) {
    if (failure.keyword === 'enum') {
      enumerated = true;
      allowed.push(...(failure.params.allowedValues as unknown[]));
    } else if (failure.keyword === 'const') {
      enumerated = true;
      allowed.push(failure.params.allowedValue);
    } else if (failure.keyword === 'type' && failure.params.type === 'null') {
      allowed.push(null);
    } else if (failure.keyword !== 'anyOf') {
      other ??= failure;
    }
  }
  if (enumerated && other === undefined) return SCHEMA_PROBLEM_WORDS.mustBeOneOf(allowed);
  return (other ?? failures[0])?.message ?? SCHEMA_PROBLEM_WORDS.invalid();
}
