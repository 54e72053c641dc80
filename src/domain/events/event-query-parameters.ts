import { invalidQuery } from '../../errors/app-error.js';
import { boundedList, namesWithMore } from '../../errors/item-problems.js';
import { unknownParameterProblem } from '../operator-suffix.js';
import {
  EVENT_FILTER_PARAMETERS,
  EVENTS_LIMIT,
  EVENTS_MAX_PAGE,
  filterOperators,
  INTEGER_FILTER_BOUNDS,
  ORDER_BY_VALUES,
  parameterName,
} from './event-fields.js';

/** The query string as it arrives: a repeated name holds all its values. */
export type RawEventQuery = Readonly<Record<string, string | readonly string[] | undefined>>;

type ParameterRule = { readonly kind: 'string' | 'order' } | { readonly kind: 'integer'; readonly minimum: number; readonly maximum: number };

/** Every parameter GET /v1/events takes, in the order a refusal names their problems. */
const PARAMETER_RULES: ReadonlyMap<string, ParameterRule> = new Map<string, ParameterRule>([
  ...EVENT_FILTER_PARAMETERS.flatMap((parameter) =>
    filterOperators(parameter).map((operator): [string, ParameterRule] => [
      parameterName(parameter.name, operator),
      parameter.kind === 'integer' ? { kind: 'integer', ...INTEGER_FILTER_BOUNDS } : { kind: 'string' },
    ]),
  ),
  ['limit', { kind: 'integer', minimum: EVENTS_LIMIT.minimum, maximum: EVENTS_LIMIT.maximum }],
  ['page', { kind: 'integer', minimum: 1, maximum: EVENTS_MAX_PAGE }],
  ['order_by', { kind: 'order' }],
]);

const RULE_ORDER = new Map([...PARAMETER_RULES.keys()].map((name, index) => [name, index]));

const DECIMAL_INTEGER = /^-?\d+$/;

/**
 * Checks the raw query string against the parameters the list takes and returns each value:
 * a 400 names every unknown or repeated parameter and every value out of its bounds. An
 * integer must be written as a decimal integer ('0x10', '1e3' or ' 5' are not); those are
 * refused first, on their own.
 */
export function checkEventQueryParameters(raw: RawEventQuery): ReadonlyMap<string, string> {
  const notDecimal = Object.keys(raw).filter((name) => {
    const value = raw[name];
    return PARAMETER_RULES.get(name)?.kind === 'integer' && typeof value === 'string' && !DECIMAL_INTEGER.test(value);
  });
  if (notDecimal.length > 0) {
    throw invalidQuery(notDecimal.map((name) => `query parameter '${name}' must be an integer`).join('; '), notDecimal);
  }

  const problems = new Map<string, string>();
  // The parameters given, not every one the list takes: a query names a few of a hundred.
  const given: string[] = [];
  for (const name of Object.keys(raw)) {
    if (PARAMETER_RULES.has(name)) given.push(name);
    else problems.set(name, unknownParameterProblem(name, PARAMETER_RULES));
  }
  const values = new Map<string, string>();
  if (given.length > 1) given.sort((a, b) => RULE_ORDER.get(a)! - RULE_ORDER.get(b)!);
  for (const name of given) {
    const rule = PARAMETER_RULES.get(name)!;
    const value = raw[name];
    if (value === undefined) continue;
    const problem = typeof value === 'string' ? valueProblem(rule, value) : 'may be given only once';
    if (problem === undefined) values.set(name, value as string);
    else problems.set(name, `query parameter '${name}' ${problem}`);
  }
  if (problems.size > 0) throw invalidQuery(namesWithMore([...problems.values()], '; '), boundedList([...problems.keys()]).listed);
  return values;
}

function valueProblem(rule: ParameterRule, value: string): string | undefined {
  if (rule.kind === 'integer') {
    const number = Number(value);
    // A decimal of over 308 digits is ±Infinity: parseEventQuery refuses it, in its own words.
    if (!Number.isFinite(number)) return undefined;
    if (number < rule.minimum) return `must be >= ${rule.minimum}`;
    if (number > rule.maximum) return `must be <= ${rule.maximum}`;
    return undefined;
  }
  if (rule.kind === 'order') return ORDER_BY_VALUES.includes(value) ? undefined : `must be one of: ${namesWithMore(ORDER_BY_VALUES)}`;
  // PostgreSQL text cannot hold NUL (the HTTP layer refuses it earlier, for every route).
  return value.includes('\u0000') ? 'must match pattern "^[^\\u0000]*$"' : undefined;
}
