/** NUL, or a UTF-16 surrogate without its other half. */
const NOT_STORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether both databases can store a string as it is: PostgreSQL text cannot hold NUL (the
 * statement fails), and a lone surrogate is not Unicode (drivers store U+FFFD instead, and
 * PostgreSQL's JSON parser refuses its escape).
 */
export const isStorableText = (value: string): boolean => !NOT_STORABLE.test(value);

/** Bytes that are not UTF-8; `offset` is the 0-based position of the byte where decoding fails. */
export class InvalidUtf8Error extends Error {
  constructor(readonly offset: number) {
    super(`not valid UTF-8 (at byte ${offset})`);
    this.name = 'InvalidUtf8Error';
  }
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes UTF-8 strictly: bytes that are not UTF-8 throw an InvalidUtf8Error (never U+FFFD
 * in their place). A leading byte order mark is dropped, as JSON parsers do.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    throw new InvalidUtf8Error(firstInvalidByte(bytes));
  }
}

/**
 * Where the first bytes that are not UTF-8 start. The shortest prefix a streaming decoder
 * refuses (a prefix ending inside a character is still acceptable to it) ends with the byte
 * where decoding fails; the character it breaks starts at most three bytes earlier, at the end
 * of the longest prefix that decodes whole. Only called on failure, so it costs nothing on
 * good input.
 */
function firstInvalidByte(bytes: Uint8Array): number {
  const decodes = (length: number, stream: boolean): boolean => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, length), { stream });
      return true;
    } catch {
      return false;
    }
  };
  let failsAt = bytes.length; // a character cut short by the end of the input
  if (!decodes(bytes.length, true)) {
    let low = 1;
    let high = bytes.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (decodes(middle, true)) low = middle + 1;
      else high = middle;
    }
    failsAt = low - 1;
  }
  for (let back = 0; back <= 3 && back <= failsAt; back++) {
    if (decodes(failsAt - back, false)) return failsAt - back;
  }
  return failsAt;
}

/** At most `max` characters of a name echoed in a message (an error body must not grow with the input). */
export const clipped = (text: string, max = 200): string => (text.length > max ? `${text.slice(0, max)}...` : text);

/**
 * A place in a JSON value holding text the databases cannot store: its path (`fields.Borrower`,
 * `child_records[0].id`; '' for the value itself) and whether the text is a key of the object there.
 */
export interface UnstorablePlace {
  readonly path: string;
  readonly key: boolean;
}

/**
 * Every place of a parsed JSON value that holds text the databases cannot store (isStorableText),
 * in document order. Walks without recursion: values may nest deeply.
 */
export function unstorableTextPlaces(value: unknown): UnstorablePlace[] {
  // An entry is a value to walk, or (`key`) a key already found unstorable, listed in its turn.
  const stack: Array<{ value: unknown; path: string; key?: true }> = [{ value, path: '' }];
  const places: UnstorablePlace[] = [];
  while (stack.length > 0) {
    const { value: item, path, key } = stack.pop()!;
    if (key) {
      places.push({ path, key: true });
    } else if (typeof item === 'string') {
      if (!isStorableText(item)) places.push({ path, key: false });
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push({ value: item[i], path: `${path}[${i}]` });
    } else if (item !== null && typeof item === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(item))) {
      const entries = Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [name, child] = entries[i]!;
        stack.push({ value: child, path: path === '' ? name : `${path}.${name}` });
        if (!isStorableText(name)) stack.push({ value: undefined, path, key: true });
      }
    }
  }
  return places;
}
