import { isStorableText } from '../../lib/text.js';

export const MAX_COMPANY_ID_LENGTH = 200;

/** The one rule for a company ID, wherever one arrives: token claims, operator paths, bodies, the CLI. */
export const COMPANY_ID_RULE =
  `a company ID is 1 to ${MAX_COMPANY_ID_LENGTH} visible characters (no control or format characters, ` +
  "NUL or unpaired surrogates), with no leading or trailing blank, and is not '.' or '..' nor has a '.' or '..' segment";

/** Control, format (zero-width, bidi) and line/paragraph separator characters. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const EDGE_BLANK = /^\s|\s$/u;
const DOT_SEGMENT = /(?:^|[/\\])\.\.?(?:[/\\]|$)/;

/** What is wrong with a company ID, or undefined when it follows the rule. */
export function companyIdProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length === 0) return 'must not be empty';
  const length = [...value].length;
  if (length > MAX_COMPANY_ID_LENGTH) return `must be at most ${MAX_COMPANY_ID_LENGTH} characters (has ${length})`;
  if (!isStorableText(value) || INVISIBLE.test(value)) {
    return 'must hold visible characters only (no control or format characters, NUL or unpaired surrogates)';
  }
  if (EDGE_BLANK.test(value)) return 'must not begin or end with a blank';
  if (DOT_SEGMENT.test(value)) return "must not be '.' or '..' nor have a '.' or '..' segment";
  return undefined;
}
