/** The header a client sends to make a POST or PUT safe to retry. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

export const IDEMPOTENCY_KEY_RULE = '1 to 255 visible ASCII characters (0x21-0x7E: no spaces, no control or non-ASCII characters)';

export const IDEMPOTENCY_KEY_FORMS =
  'sent bare (abc) or as a Structured Field string (RFC 8941: "abc", with \\" and \\\\ as the only escapes); both name the same key';

const VISIBLE_ASCII = /^[\x21-\x7e]{1,255}$/;
/** An sf-string's unescaped characters (RFC 8941 §3.3.3): printable ASCII but `"` and `\`. */
const SF_STRING_CHAR = /[\x20\x21\x23-\x5b\x5d-\x7e]/;
const SHOWN_VALUE_CHARS = 100;

/**
 * The key, or why the header value is not one. A value that starts with `"` is a Structured
 * Field string (the IETF Idempotency-Key draft's form) and names the key it spells unquoted;
 * any other value is the key itself (the form this service took first).
 */
export function parseIdempotencyKey(value: string | string[]): { key: string } | { problem: string } {
  if (Array.isArray(value)) return { problem: `${IDEMPOTENCY_KEY_HEADER} is sent more than once; send it once` };
  if (!value.startsWith('"')) return checkedKey(value, '');
  const unquoted = parseSfString(value);
  if ('problem' in unquoted) {
    return { problem: `${IDEMPOTENCY_KEY_HEADER} ${JSON.stringify(shown(value))} is not a Structured Field string: ${unquoted.problem}` };
  }
  return checkedKey(unquoted.text, ' inside the quotes');
}

function checkedKey(key: string, where: string): { key: string } | { problem: string } {
  if (VISIBLE_ASCII.test(key)) return { key };
  return { problem: `${IDEMPOTENCY_KEY_HEADER} must be ${IDEMPOTENCY_KEY_RULE}${where}; got ${describe(key)}` };
}

/** RFC 8941 §4.2.5: `"`, then characters or `\"` / `\\`, then the closing `"` ending the value. */
function parseSfString(value: string): { text: string } | { problem: string } {
  let text = '';
  for (let index = 1; index < value.length; index++) {
    const char = value[index]!;
    if (char === '"') {
      if (index !== value.length - 1) return { problem: `nothing may follow its closing quote (at character ${index + 1})` };
      return { text };
    }
    if (char === '\\') {
      const escaped = value[index + 1];
      if (escaped !== '"' && escaped !== '\\') {
        return { problem: `a backslash may only escape " or \\ (at character ${index + 1})` };
      }
      text += escaped;
      index++;
      continue;
    }
    if (!SF_STRING_CHAR.test(char)) return { problem: `it holds ${codePoint(char)} (at character ${index + 1})` };
    text += char;
  }
  return { problem: 'the closing quote is missing' };
}

function describe(value: string): string {
  if (value.length === 0) return 'an empty value';
  if (value.length > 255) return `${value.length} characters`;
  const bad = [...value].find((char) => !/[\x21-\x7e]/.test(char));
  return bad === undefined ? 'a value it does not allow' : `the character ${codePoint(bad)}`;
}

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

function shown(value: string): string {
  return value.length > SHOWN_VALUE_CHARS ? `${value.slice(0, SHOWN_VALUE_CHARS)}...` : value;
}
