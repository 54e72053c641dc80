import AjvCompiler, { type ValidatorFactory } from '@fastify/ajv-compiler';
import type { FastifySchemaCompiler } from 'fastify';

/** Ajv settings for every route schema. */
export const AJV_CUSTOM_OPTIONS = {
  // Unknown properties are errors, never silently dropped; query values are strings to coerce.
  removeAdditional: false,
  coerceTypes: true,
  allErrors: true,
  useDefaults: true,
};

type Validator = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown[] | null; schemaEnv?: unknown };
type RoutePart = Parameters<FastifySchemaCompiler<unknown>>[0];
type RoutePartCompiler = (part: RoutePart) => Validator;
type AjvCompilerOptions = { customOptions?: Record<string, unknown> } & Record<string, unknown>;

const buildAjvCompiler = AjvCompiler() as unknown as (externalSchemas: unknown, options: AjvCompilerOptions) => RoutePartCompiler;

/**
 * The validator builder given to Fastify (`schemaController.compilersFactory`): Fastify's
 * own Ajv compiler, whose validators also refuse a number that is not finite. Ajv's coercion
 * turns the strings `Infinity` and `1e400` into Infinity and then skips every number keyword
 * (minimum, maximum, integer) for it, so `?limit=Infinity` would pass validation and reach
 * the database (ajv-validator/ajv#2212, open).
 */
function buildRoutePartCompiler(externalSchemas: unknown, options: AjvCompilerOptions): RoutePartCompiler {
  const compile = buildAjvCompiler(externalSchemas, options);
  return (part) => {
    let validate = compile(part);
    if (mayHoldNonFiniteNumber(part)) validate = refusingNonFiniteNumbers(validate);
    const numbers = part.httpPart === 'body' ? undefined : numberTextProperties(part.schema);
    return numbers ? refusingLooseNumberText(validate, numbers) : validate;
  };
}

type NumberKind = 'integer' | 'number';

const NUMBER_TEXT: Record<NumberKind, RegExp> = { integer: /^-?\d+$/, number: /^-?\d+(?:\.\d+)?$/ };

/** The properties of a path, query or header schema that declare one number type, if any. */
function numberTextProperties(schema: unknown): Map<string, NumberKind> | undefined {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties;
  if (!properties) return undefined;
  const numbers = new Map<string, NumberKind>();
  for (const [name, property] of Object.entries(properties)) {
    if (property.type === 'integer' || property.type === 'number') numbers.set(name, property.type);
  }
  return numbers.size > 0 ? numbers : undefined;
}

/**
 * Refuses number text that is not plain decimal digits (`-?123`, with a fraction for a number),
 * before Ajv coerces it: its coercion takes whatever `Number()` takes, so `?limit=0x10`,
 * `?limit=1e1` and `?limit=%205` were read as 16, 10 and 5. `GET /v1/events`, which parses its
 * own query, has refused them from the start with the same grammar.
 */
function refusingLooseNumberText(validate: Validator, numbers: Map<string, NumberKind>): Validator {
  const checked: Validator = (data, context) => {
    const values = data as Record<string, unknown> | null | undefined;
    const errors: unknown[] = [];
    if (values && typeof values === 'object') {
      for (const [name, kind] of numbers) {
        const text = values[name];
        if (typeof text === 'string' && !NUMBER_TEXT[kind].test(text)) {
          errors.push({
            instancePath: `/${name}`,
            schemaPath: `#/properties/${name}/type`,
            keyword: 'type',
            params: { type: kind },
            message: `must be ${kind}`,
          });
        }
      }
    }
    if (errors.length > 0) {
      checked.errors = errors;
      return false;
    }
    const valid = validate(data, context);
    checked.errors = validate.errors;
    return valid;
  };
  if (validate.schemaEnv !== undefined) checked.schemaEnv = validate.schemaEnv;
  return checked;
}

const NUMBER_TYPE = /"type":(?:"(?:integer|number)"|\[[^\]]*"(?:integer|number)")|"\$ref"/;

/**
 * Whether a validated part can hold Infinity: a JSON body can (`1e400` parses as Infinity, and
 * Ajv does not look inside a schema's Unknown values); a path, query or header value is text
 * and becomes a number only where its schema (or a reference it follows) says number. Parts
 * that cannot are not walked on every request.
 */
function mayHoldNonFiniteNumber(part: RoutePart): boolean {
  return part.httpPart === 'body' || NUMBER_TYPE.test(JSON.stringify(part.schema) ?? '');
}

/**
 * The validator of every part of a route that checks its input itself (its schemas only
 * document it): whatever came passes as it came. It answers `true`, not `{ value }`: Fastify
 * assigns a `value` back to the request, and a `request.headers` so assigned makes every later
 * read of the headers copy them all.
 */
export const checkedByTheRoute: FastifySchemaCompiler<unknown> = () => () => true;

/**
 * The validator of a route whose body schema documents more than the validator checks (the
 * steps route documents every step type's inputs, which the step service checks as sent): the
 * body is checked against `body`, every other part against its own schema.
 */
export function checkingBodyAgainst(body: unknown): FastifySchemaCompiler<unknown> {
  return (part) => compileRoutePart(part.httpPart === 'body' ? { ...part, schema: body } : part) as ReturnType<FastifySchemaCompiler<unknown>>;
}

/** buildRoutePartCompiler as Fastify's option types it (they describe Ajv's compile, not a route-part compiler). */
export const buildValidator = buildRoutePartCompiler as unknown as ValidatorFactory;

let standalone: RoutePartCompiler | undefined;

/** The same compiler, with the service's settings, for schemas checked outside a route (the CLI). */
export function compileRoutePart(part: RoutePart): Validator {
  standalone ??= buildRoutePartCompiler({}, { customOptions: AJV_CUSTOM_OPTIONS });
  return standalone(part);
}

function refusingNonFiniteNumbers(validate: Validator): Validator {
  const checked: Validator = (data, context) => {
    const valid = validate(data, context);
    checked.errors = validate.errors;
    if (valid !== true) return valid;
    const path = nonFiniteNumberPath(data);
    if (path === undefined) return true;
    checked.errors = [{ instancePath: path, schemaPath: '#', keyword: 'type', params: { type: 'number' }, message: 'must be a finite number' }];
    return false;
  };
  // Fastify passes the parent object (so Ajv may replace a coerced root) only to a validator that has one.
  if (validate.schemaEnv !== undefined) checked.schemaEnv = validate.schemaEnv;
  return checked;
}

/**
 * The JSON pointer of the first Infinity or -Infinity inside `data`, if any. Walked with a
 * queue, not recursion: Ajv does not descend into a schema's Unknown values, so a body may nest
 * deeper than the call stack. Only nested objects and arrays are queued.
 */
function nonFiniteNumberPath(data: unknown): string | undefined {
  if (typeof data === 'number') return Number.isFinite(data) ? undefined : '';
  if (data === null || typeof data !== 'object') return undefined;
  const containers: object[] = [data];
  const parents: number[] = [-1];
  const keys: (string | number)[] = [''];
  const pathTo = (at: number, key: string | number) => {
    const names = [key];
    for (let up = at; up > 0; up = parents[up]!) names.push(keys[up]!);
    return names
      .reverse()
      .map((name) => `/${String(name).replaceAll('~', '~0').replaceAll('/', '~1')}`)
      .join('');
  };
  for (let at = 0; at < containers.length; at++) {
    const container = containers[at] as Record<string | number, unknown>;
    const visit = (key: string | number): string | undefined => {
      const value = container[key];
      if (typeof value === 'number') return Number.isFinite(value) ? undefined : pathTo(at, key);
      if (value !== null && typeof value === 'object') {
        containers.push(value);
        parents.push(at);
        keys.push(key);
      }
      return undefined;
    };
    if (Array.isArray(container)) {
      for (let index = 0; index < container.length; index++) {
        const found = visit(index);
        if (found !== undefined) return found;
      }
    } else {
      for (const key in container) {
        const found = visit(key);
        if (found !== undefined) return found;
      }
    }
  }
  return undefined;
}
