import { Kind, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';

/** One field of a value that does not fit its schema, in plain words. */
export interface ShapeProblem {
  /** Dotted path (`to.address_zip`, `thumbnails.0.small`); empty for the value itself. */
  readonly field: string;
  readonly message: string;
}

/**
 * Compiles a TypeBox schema into a function listing what is wrong with a value: one problem a
 * field, worded from the schema ("must be a ZIP code, 12345 or 12345-1234"), never the
 * validator's own messages.
 */
export function shapeChecker(schema: TSchema): (value: unknown) => ShapeProblem[] {
  const compiled: TypeCheck<TSchema> = TypeCompiler.Compile(schema);
  return (value) => {
    if (compiled.Check(value)) return [];
    return [...problemsByPointer(compiled.Errors(value), '')].map(([pointer, message]) => ({ field: dotted(pointer), message }));
  };
}

/** The first problem at each JSON pointer, in the order the errors came. */
function problemsByPointer(errors: Iterable<ValueError>, prefix: string, found = new Map<string, string>()): Map<string, string> {
  for (const error of errors) {
    const pointer = prefix + error.path;
    if (found.has(pointer)) continue;
    const member = error.type === ValueErrorType.Union ? structuralMemberFor(error.schema, error.value) : undefined;
    if (member) problemsByPointer(Value.Errors(member, error.value), pointer, found);
    else found.set(pointer, messageFor(error));
  }
  return found;
}

function messageFor(error: ValueError): string {
  if (error.type === ValueErrorType.ObjectAdditionalProperties) return 'is not a field Lob documents here';
  if (error.type === ValueErrorType.ObjectRequiredProperty) return `is required: ${expected(error.schema)}`;
  return `must be ${expected(error.schema)}`;
}

/**
 * Of a union (an id or an object, an object or null), the one object or array member the value
 * is meant to be, so that the problem is named inside it rather than as "not any of these".
 */
function structuralMemberFor(union: TSchema, value: unknown): TSchema | undefined {
  const jsonType = Array.isArray(value) ? 'array' : value !== null && typeof value === 'object' ? 'object' : undefined;
  if (!jsonType) return undefined;
  const members = (union.anyOf as TSchema[]).filter((member) =>
    jsonType === 'array' ? member[Kind] === 'Array' : member[Kind] === 'Object' || member[Kind] === 'Record',
  );
  return members.length === 1 ? members[0] : undefined;
}

/** What a value of this schema is, in words. */
function expected(schema: TSchema): string {
  switch (schema[Kind]) {
    case 'Union':
      return describeUnion(schema.anyOf as TSchema[]);
    case 'Literal':
      return JSON.stringify(schema.const);
    case 'Null':
      return 'null';
    case 'Boolean':
      return 'true or false';
    case 'String':
      return schema.pattern && schema.description ? schema.description : `a string${lengthWords(schema)}`;
    case 'Number':
    case 'Integer':
      return `${schema[Kind] === 'Integer' ? 'an integer' : 'a number'}${rangeWords(schema)}`;
    case 'Array':
      return schema.maxItems === undefined ? 'an array' : `an array of at most ${schema.maxItems.toLocaleString('en-US')} items`;
    case 'Record':
    case 'Object':
      return schema.description ?? 'an object';
    default:
      return schema.description ?? 'valid';
  }
}

function describeUnion(members: TSchema[]): string {
  const literals = members.filter((member) => member[Kind] === 'Literal').map((member) => JSON.stringify(member.const));
  const others = members.filter((member) => member[Kind] !== 'Literal').map(expected);
  const words = literals.length > 1 ? [`one of ${literals.join(', ')}`] : literals;
  return [...words, ...others].join(' or ');
}

function lengthWords(schema: TSchema): string {
  const { minLength: min, maxLength: max } = schema as { minLength?: number; maxLength?: number };
  if (min !== undefined && min > 0 && max !== undefined) return min === max ? ` of ${max} characters` : ` of ${min} to ${max} characters`;
  if (min !== undefined && min > 0) return ` of at least ${min} characters`;
  if (max !== undefined) return ` of at most ${max} characters`;
  return '';
}

function rangeWords(schema: TSchema): string {
  const { exclusiveMinimum, minimum, maximum } = schema as { exclusiveMinimum?: number; minimum?: number; maximum?: number };
  if (minimum !== undefined) return maximum === undefined ? ` from ${minimum}` : ` from ${minimum} to ${maximum}`;
  const words = [...(exclusiveMinimum !== undefined ? [`above ${exclusiveMinimum}`] : []), ...(maximum !== undefined ? [`at most ${maximum}`] : [])];
  return words.length > 0 ? ` ${words.join(' and ')}` : '';
}

/** `/to/address_zip` -> `to.address_zip` (a JSON pointer's escapes undone). */
function dotted(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
}
