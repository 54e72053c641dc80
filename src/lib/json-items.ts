import { decodeUtf8, InvalidUtf8Error } from './text.js';

/**
 * Reads a stream of JSON values one at a time, without holding the whole body: either
 * NDJSON (one value per line) or one JSON array. Each value carries its position, so that a
 * caller can name the bad one: the 1-based line of NDJSON, the 0-based index in an array.
 *
 * Items are found in the bytes (newlines; brackets, braces, commas and quotes, which UTF-8
 * never uses inside a multi-byte character), then each item is decoded strictly and parsed
 * on its own: an item that is not UTF-8 or not JSON is reported as an item `problem`, and
 * reading goes on, so that a caller can list every bad item. Only a body whose structure is
 * broken (not an array, an array cut short) ends the reading, with a JsonItemsError.
 */
export type JsonItemsFormat = 'ndjson' | 'array';

export type JsonItem =
  /** Line number (NDJSON, 1-based) or array index (0-based), and the value there. */
  | { readonly position: number; readonly value: unknown }
  /** Why the item at `position` could not be read. */
  | { readonly position: number; readonly problem: string };

/** The message says what is wrong; the caller names the place from `position`. */
export class JsonItemsError extends Error {
  constructor(
    message: string,
    /** Where the problem is, in the same terms as JsonItem.position; null when it is about the whole body. */
    readonly position: number | null,
  ) {
    super(message);
    this.name = 'JsonItemsError';
  }
}

/** Where the bytes come from: a stream, or chunks already in memory. */
export type ByteSource = AsyncIterable<Buffer | string> | Iterable<Buffer | string>;

export function readJsonItems(source: ByteSource, format: JsonItemsFormat): AsyncGenerator<JsonItem> {
  return format === 'ndjson' ? readNdjson(source) : readJsonArray(source);
}

async function* byteChunks(source: ByteSource): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (bytes.length > 0) yield bytes;
  }
}

/** The text of an item, or why it has none; `offset` is where the item starts in the body. */
function decodeItem(bytes: Buffer, offset: number): { text: string } | { problem: string } {
  try {
    return { text: decodeUtf8(bytes) };
  } catch (error) {
    if (!(error instanceof InvalidUtf8Error)) throw error;
    return { problem: `not valid UTF-8 (at byte ${offset + error.offset} of the body)` };
  }
}

function parseItem(text: string, position: number): JsonItem {
  try {
    return { position, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { position, problem: `malformed JSON (${(error as Error).message})` };
  }
}

const NEWLINE = 0x0a;
const RETURN = 0x0d;

/** The text of whole lines, or undefined when they are not all UTF-8. */
function decodeRegion(bytes: Buffer): string | undefined {
  try {
    return strictRegionDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}

const strictRegionDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** One line of decoded text, `from` to `to` (the newline), as decodeItem would see its bytes. */
function textItem(text: string, from: number, to: number, line: number): JsonItem | null {
  if (to > from && text.charCodeAt(to - 1) === 0x0d) to--;
  // decodeUtf8 drops a byte order mark at the start of each line.
  if (to > from && text.charCodeAt(from) === 0xfeff) from++;
  const lineText = text.slice(from, to);
  if (lineText.trim() === '') return null;
  return parseItem(lineText, line);
}

async function* readNdjson(source: ByteSource): AsyncGenerator<JsonItem> {
  let pending: Buffer[] = [];
  let line = 0;
  let lineStart = 0;
  const item = (raw: Buffer): JsonItem | null => {
    line++;
    const offset = lineStart;
    lineStart += raw.length + 1;
    const bytes = raw.length > 0 && raw[raw.length - 1] === RETURN ? raw.subarray(0, -1) : raw;
    const decoded = decodeItem(bytes, offset);
    if ('problem' in decoded) return { position: line, problem: decoded.problem };
    if (decoded.text.trim() === '') return null;
    return parseItem(decoded.text, line);
  };
  for await (const chunk of byteChunks(source)) {
    let start = 0;
    // The chunk's whole lines are decoded at once; only a region that is not UTF-8 is taken
    // line by line, to name the line and byte at fault.
    const lastNewline = chunk.lastIndexOf(NEWLINE);
    if (lastNewline !== -1) {
      const region = pending.length > 0 ? Buffer.concat([...pending, chunk.subarray(0, lastNewline)]) : chunk.subarray(0, lastNewline);
      const text = decodeRegion(region);
      if (text !== undefined) {
        pending = [];
        start = lastNewline + 1;
        lineStart += region.length + 1;
        for (let from = 0; from <= text.length; ) {
          let to = text.indexOf('\n', from);
          if (to === -1) to = text.length;
          line++;
          const parsed = textItem(text, from, to, line);
          if (parsed) yield parsed;
          from = to + 1;
        }
      }
    }
    for (let newline = chunk.indexOf(NEWLINE, start); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, newline);
      const parsed = item(pending.length > 0 ? Buffer.concat([...pending, piece]) : piece);
      pending = [];
      if (parsed) yield parsed;
      start = newline + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) {
    const parsed = item(Buffer.concat(pending));
    if (parsed) yield parsed;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const SPACE = 0x20;
const TAB = 0x09;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

const isWhitespace = (c: number): boolean => c === SPACE || c === NEWLINE || c === RETURN || c === TAB;

/**
 * Splits a top-level JSON array into its elements by tracking nesting and strings, then
 * decodes and parses each element on its own: the scanner only finds boundaries, the
 * decoder and the parser judge.
 */
async function* readJsonArray(source: ByteSource): AsyncGenerator<JsonItem> {
  type State = 'start' | 'first' | 'item' | 'next' | 'end';
  let state: State = 'start';
  let index = 0;
  let itemParts: Buffer[] = [];
  let itemOffset = 0;
  let chunkOffset = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;

  for await (let chunk of byteChunks(source)) {
    if (chunkOffset === 0 && chunk.subarray(0, 3).equals(BOM)) {
      chunk = chunk.subarray(3);
      chunkOffset = 3;
    }
    let itemStart = state === 'item' ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (state === 'item') {
        if (inString) {
          if (escaped) escaped = false;
          else if (c === BACKSLASH) escaped = true;
          else if (c === QUOTE) inString = false;
        } else if (c === QUOTE) {
          inString = true;
        } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
          depth++;
        } else if (depth > 0) {
          if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
        } else if (c === COMMA || c === CLOSE_BRACKET) {
          itemParts.push(chunk.subarray(itemStart, i));
          const bytes = itemParts.length === 1 ? itemParts[0]! : Buffer.concat(itemParts);
          const decoded = decodeItem(bytes, itemOffset);
          yield 'problem' in decoded ? { position: index, problem: decoded.problem } : parseItem(decoded.text, index);
          index++;
          itemParts = [];
          itemStart = -1;
          state = c === COMMA ? 'next' : 'end';
        } else if (c === CLOSE_BRACE) {
          throw new JsonItemsError("malformed JSON (unexpected '}')", index);
        }
        continue;
      }
      if (isWhitespace(c)) continue;
      if (state === 'start') {
        if (c !== OPEN_BRACKET) throw new JsonItemsError('the body must be a JSON array (or NDJSON, sent as application/x-ndjson)', null);
        state = 'first';
      } else if (state === 'end') {
        throw new JsonItemsError('unexpected content after the end of the JSON array', null);
      } else if (c === CLOSE_BRACKET) {
        if (state === 'next') throw new JsonItemsError("expected a value after ',' (trailing comma)", index);
        state = 'end';
      } else if (c === COMMA) {
        throw new JsonItemsError("expected a value, found ','", index);
      } else {
        state = 'item';
        itemStart = i;
        itemOffset = chunkOffset + i;
        depth = 0;
        inString = false;
        escaped = false;
        i--; // the item state reads its first byte
      }
    }
    if (state === 'item') itemParts.push(chunk.subarray(itemStart));
    chunkOffset += chunk.length;
  }
  if (state === 'start') throw new JsonItemsError('the body is empty: send a JSON array', null);
  if ((state as State) !== 'end') throw new JsonItemsError("the JSON array ends early: missing ']'", index);
}

/** One step of reading a body's items, the end and a broken body included. */
export type ItemStep =
  | { readonly kind: 'value'; readonly position: number; readonly value: unknown }
  /** An item that could not be read; `last` when the body's structure broke there and reading ends. */
  | { readonly kind: 'problem'; readonly position: number; readonly message: string; readonly last: boolean }
  /** No more items; `bodyProblem` when the body as a whole is broken (not an array, say). */
  | { readonly kind: 'end'; readonly bodyProblem?: string };

/** The next step of `items`: a broken body is a step, not a throw, so that bulk readers list it like any problem. */
export async function nextItem(items: AsyncIterator<JsonItem>): Promise<ItemStep> {
  let next: IteratorResult<JsonItem>;
  try {
    next = await items.next();
  } catch (error) {
    if (!(error instanceof JsonItemsError)) throw error;
    if (error.position === null) return { kind: 'end', bodyProblem: error.message };
    return { kind: 'problem', position: error.position, message: error.message, last: true };
  }
  if (next.done) return { kind: 'end' };
  const item = next.value;
  return 'problem' in item
    ? { kind: 'problem', position: item.position, message: item.problem, last: false }
    : { kind: 'value', position: item.position, value: item.value };
}
