import { StringDecoder } from 'node:string_decoder';

/**
 * Reads a stream of JSON values one at a time, without holding the whole body: either
 * NDJSON (one value per line) or one JSON array. Each value carries its position, so that a
 * caller can name the bad one: the 1-based line of NDJSON, the 0-based index in an array.
 */
export type JsonItemsFormat = 'ndjson' | 'array';

export interface JsonItem {
  readonly value: unknown;
  /** Line number (NDJSON, 1-based) or array index (0-based). */
  readonly position: number;
}

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

/** Where the text comes from: a stream, or chunks already in memory. */
export type ByteSource = AsyncIterable<Buffer | string> | Iterable<Buffer | string>;

/** Media types read as NDJSON; `application/json` is read as one array. */
export const NDJSON_MEDIA_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl'];

export function readJsonItems(source: ByteSource, format: JsonItemsFormat): AsyncGenerator<JsonItem> {
  return format === 'ndjson' ? readNdjson(source) : readJsonArray(source);
}

async function* decoded(source: ByteSource): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of source) {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    if (text) yield text;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

function parse(text: string, position: number): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new JsonItemsError(`malformed JSON (${(error as Error).message})`, position);
  }
}

async function* readNdjson(source: ByteSource): AsyncGenerator<JsonItem> {
  let pending = '';
  let line = 0;
  const item = (raw: string): JsonItem | null => {
    line++;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.trim() === '') return null;
    return { value: parse(text, line), position: line };
  };
  for await (const chunk of decoded(source)) {
    let start = 0;
    let newline = chunk.indexOf('\n');
    if (newline === -1) {
      pending += chunk;
      continue;
    }
    let first = pending + chunk.slice(0, newline);
    pending = '';
    for (;;) {
      const parsed = item(first);
      if (parsed) yield parsed;
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
      if (newline === -1) break;
      first = chunk.slice(start, newline);
    }
    pending = chunk.slice(start);
  }
  if (pending !== '') {
    const parsed = item(pending);
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
const NEWLINE = 0x0a;
const RETURN = 0x0d;

const isWhitespace = (c: number): boolean => c === SPACE || c === NEWLINE || c === RETURN || c === TAB;

/**
 * Splits a top-level JSON array into its elements by tracking nesting and strings, then
 * parses each element with JSON.parse: the scanner only finds boundaries, the parser judges.
 */
async function* readJsonArray(source: ByteSource): AsyncGenerator<JsonItem> {
  type State = 'start' | 'first' | 'item' | 'next' | 'end';
  let state: State = 'start';
  let index = 0;
  let item = '';
  let depth = 0;
  let inString = false;
  let escaped = false;

  for await (const chunk of decoded(source)) {
    let itemStart = state === 'item' ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
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
          item += chunk.slice(itemStart, i);
          yield { value: parse(item, index), position: index };
          index++;
          item = '';
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
        depth = 0;
        inString = false;
        escaped = false;
        i--; // the item state reads its first character
      }
    }
    if (state === 'item') item += chunk.slice(itemStart);
  }
  if (state === 'start') throw new JsonItemsError('the body is empty: send a JSON array', null);
  if ((state as State) !== 'end') throw new JsonItemsError("the JSON array ends early: missing ']'", index);
}
