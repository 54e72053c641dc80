import { namesWithMore } from './item-problems.js';

/** The JSON types a schema asks for, each as a problem names it: `must be an integer`. */
const TYPE_WORDS = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
} as const;

export type JsonType = keyof typeof TYPE_WORDS;

/**
 * How a problem a schema validator found is worded, whichever validator found it: Ajv for the
 * routes' bodies and queries (http/validation-errors.ts), TypeBox's for a step's inputs
 * (domain/steps/step-inputs.ts). Each caller puts the place in front.
 */
export const SCHEMA_PROBLEM_WORDS = {
  /** A property the schema does not declare: `unknown field 'a.b'`, `unknown input 'inputs.b'`. */
  unknown: (noun: 'field' | 'input', at: string): string => `unknown ${noun} '${at}'`,
  /** A value of another JSON type than the schema's. */
  mustBe: (type: JsonType): string => `must be ${TYPE_WORDS[type]}`,
  /** The values an enum, or a union of constants, allows: strings as they are, others as JSON. */
  mustBeOneOf: (allowed: readonly unknown[]): string => {
    const names = [...new Set(allowed)].map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
    return `must be one of: ${namesWithMore(names)}`;
  },
  /** Any other problem, with the validator's own words when they say more. */
  invalid: (validatorWords?: string): string =>
    validatorWords === undefined ? 'is invalid' : `is invalid: ${validatorWords.charAt(0).toLowerCase()}${validatorWords.slice(1)}`,
} as const;
