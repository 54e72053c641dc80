import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value';
import { invalidBody } from '../../errors/app-error.js';
import { namesWithMore } from '../../errors/item-problems.js';
import { type JsonType, SCHEMA_PROBLEM_WORDS } from '../../errors/schema-problem-words.js';
import { clipped } from '../../lib/text.js';
import type { StepType } from './step-type.js';

/** The TypeBox errors of a value of the wrong JSON type, by the type the schema asks for. */
const TYPE_ERRORS: Partial<Record<ValueErrorType, JsonType>> = {
  [ValueErrorType.String]: 'string',
  [ValueErrorType.Number]: 'number',
  [ValueErrorType.Integer]: 'integer',
  [ValueErrorType.Boolean]: 'boolean',
  [ValueErrorType.Object]: 'object',
  [ValueErrorType.Array]: 'array',
  [ValueErrorType.Null]: 'null',
};

/**
 * Checks a step's inputs against its type's schema and answers them typed, or throws one 400
 * listing every problem: `inputs.x is required`, `inputs.x must be a string`,
 * `unknown input 'inputs.y'`, then the type's own. Values are taken as sent, never coerced
 * (the body validator would turn 42 into "42"), which is why the route leaves them to this.
 */
export function checkStepInputs(stepType: StepType, inputs: Record<string, unknown>): Record<string, unknown> {
  const problems = Value.Check(stepType.inputs, inputs) ? [] : schemaProblems(stepType, inputs);
  problems.push(...(stepType.moreInputProblems?.(inputs) ?? []));
  if (problems.length > 0) throw invalidBody(`invalid ${stepType.type} inputs: ${namesWithMore(problems, '; ')}`);
  return inputs;
}

/** One problem per place, declared inputs first (in the schema's order), then unknown ones as sent. */
function schemaProblems(stepType: StepType, inputs: Record<string, unknown>): string[] {
  const byPath = new Map<string, ValueError[]>();
  for (const error of Value.Errors(stepType.inputs, inputs)) {
    const group = byPath.get(error.path);
    if (group) group.push(error);
    else byPath.set(error.path, [error]);
  }
  const declared = Object.keys(stepType.inputs.properties);
  const rank = (path: string) => {
    const at = declared.indexOf(pathNames(path)[0] ?? '');
    return at === -1 ? declared.length : at;
  };
  return [...byPath]
    .map(([path, errors], order) => ({ path, errors, order }))
    .sort((a, b) => rank(a.path) - rank(b.path) || a.order - b.order)
    .map(({ path, errors }) => problemAt(path, errors));
}

function problemAt(path: string, errors: ValueError[]): string {
  const at = ['inputs', ...pathNames(path).map((name) => clipped(name))].join('.');
  if (errors.some((error) => error.type === ValueErrorType.ObjectAdditionalProperties)) return SCHEMA_PROBLEM_WORDS.unknown('input', at);
  if (errors.some((error) => error.type === ValueErrorType.ObjectRequiredProperty)) return `${at} is required`;
  const type = errors.map((error) => TYPE_ERRORS[error.type]).find((expected) => expected !== undefined);
  if (type !== undefined) return `${at} ${SCHEMA_PROBLEM_WORDS.mustBe(type)}`;
  return `${at} ${SCHEMA_PROBLEM_WORDS.invalid(errors[0]!.message)}`;
}

/** The property names of a JSON pointer, unescaped. */
function pathNames(path: string): string[] {
  return path === ''
    ? []
    : path
        .slice(1)
        .split('/')
        .map((name) => name.replaceAll('~1', '/').replaceAll('~0', '~'));
}
