import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { bodyValidationError } from './validation-errors.js';
import { compileRoutePart } from './validator-compiler.js';

/**
 * Checks a body that arrives outside HTTP (the CLI) against a route's body schema as Fastify
 * would: the same compiler and settings (coercion and defaults applied in place) and the same
 * 400 naming each field. `context` names the input in the message, e.g. the file it came from.
 */
export function bodyChecker<T extends TSchema>(schema: T): (value: unknown, context: string) => Static<T> {
  const validate = compileRoutePart({ schema, httpPart: 'body', method: '', url: '' });
  return (value, context) => {
    if (validate(value) === true) return value as Static<T>;
    throw bodyValidationError((validate.errors ?? []) as FastifySchemaValidationError[], context);
  };
}
