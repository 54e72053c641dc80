import { clipped } from '../lib/text.js';

/** A query parameter with an operator suffix (`flow_key__contains`): the field, then the operator. */
const OPERATOR_SUFFIX = /^(.+)__(contains|gt|gte|lt|lte)$/;

/**
 * Why a query parameter the route does not take is refused: a parameter it takes given an
 * operator suffix it does not take (`type__gt`), or an unknown name.
 */
export function unknownParameterProblem(name: string, parameters: { has(name: string): boolean }): string {
  const suffix = OPERATOR_SUFFIX.exec(name);
  if (suffix && parameters.has(suffix[1]!)) return `query parameter '${suffix[1]}' does not accept the __${suffix[2]} operator`;
  return `unknown query parameter '${clipped(name)}'`;
}
