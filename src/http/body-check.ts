import AjvCompiler from '@fastify/ajv-compiler';
import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { bodyValidationError } from './validation-errors.js';

/** Ajv settings for every route schema (given to Fastify in app.ts). */
export const AJV_CUSTOM_OPTIONS = {
  // Unknown properties are errors, never silently dropped; query values are strings to coerce.
  removeAdditional: false,
  coerceTypes: true,
  allErrors: true,
  useDefaults: true,
};

type BodyValidator = ((value: unknown) => boolean) & { errors?: unknown[] | null };
/** Fastify's compiler takes a route part ({schema, httpPart, ...}); its published types say otherwise. */
type RoutePartCompiler = (part: { schema: TSchema; httpPart: 'body'; method: string; url: string }) => BodyValidator;

let compile: RoutePartCompiler | undefined;

/**
 * Checks a body that arrives outside HTTP (the CLI) against a route's body schema as Fastify
 * would: the same compiler and settings (coercion and defaults applied in place) and the same
 * 400 naming each field. `context` names the input in the message, e.g. the file it came from.
 */
export function bodyChecker<T extends TSchema>(schema: T): (value: unknown, context: string) => Static<T> {
  compile ??= AjvCompiler()({}, { customOptions: AJV_CUSTOM_OPTIONS }) as unknown as RoutePartCompiler;
  const validate = compile({ schema, httpPart: 'body', method: '', url: '' });
  return (value, context) => {
    if (validate(value) === true) return value as Static<T>;
    throw bodyValidationError((validate.errors ?? []) as FastifySchemaValidationError[], context);
  };
}
