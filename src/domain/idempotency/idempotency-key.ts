/** The header a client sends to make a POST or PUT safe to retry. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

export const IDEMPOTENCY_KEY_RULE = '1 to 255 visible ASCII characters (0x21-0x7E: no spaces, no control or non-ASCII characters)';

const VISIBLE_ASCII = /^[\x21-\x7e]{1,255}$/;

/** The key, or why the header value is not one. */
export function parseIdempotencyKey(value: string | string[]): { key: string } | { problem: string } {
  if (Array.isArray(value)) return { problem: `${IDEMPOTENCY_KEY_HEADER} is sent more than once; send it once` };
  if (VISIBLE_ASCII.test(value)) return { key: value };
  return { problem: `${IDEMPOTENCY_KEY_HEADER} must be ${IDEMPOTENCY_KEY_RULE}; got ${describe(value)}` };
}

function describe(value: string): string {
  if (value.length === 0) return 'an empty value';
  if (value.length > 255) return `${value.length} characters`;
  const bad = [...value].find((char) => !/[\x21-\x7e]/.test(char));
  return bad === undefined ? 'a value it does not allow' : `the character U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
