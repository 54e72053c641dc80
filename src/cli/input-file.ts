import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { unstorableTextError } from '../contracts/storable-text.js';
import { payloadTooLarge } from '../errors/app-error.js';
import type { JsonItemsFormat } from '../lib/json-items.js';
import { decodeUtf8, InvalidUtf8Error } from '../lib/text.js';

/** A file the CLI was given cannot be read, or is not what it must be; reported as it is, exit 1. */
export class InputFileError extends Error {}

/** The file's size in bytes; an InputFileError when it cannot be read. */
export function fileSize(path: string): number {
  try {
    const stats = statSync(path);
    if (!stats.isFile()) throw new Error('not a regular file');
    return stats.size;
  } catch (error) {
    throw new InputFileError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/** A file whose first non-blank character is `[` is one JSON array; anything else is NDJSON. */
export function detectFormat(path: string): JsonItemsFormat {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(4096);
    const read = readSync(fd, head, 0, head.length, 0);
    const first = head.subarray(0, read).toString('utf8').trimStart()[0];
    return first === '[' ? 'array' : 'ndjson';
  } finally {
    closeSync(fd);
  }
}

export interface ReadOptions {
  /** The size the matching HTTP route accepts; a larger file is refused as that route refuses the body (413). */
  readonly limitBytes: number;
  /** What the limit is, for the message (e.g. "WRS_TEMPLATE_LIMIT_BYTES"). */
  readonly limitName: string;
}

/** Reads a whole text file (strict UTF-8, as an HTTP body is decoded), within the route's size limit. */
async function readTextFile(path: string, options: ReadOptions): Promise<string> {
  const size = fileSize(path);
  if (size > options.limitBytes) {
    throw payloadTooLarge(
      `${path} is ${size.toLocaleString('en-US')} bytes; at most ${options.limitBytes.toLocaleString('en-US')} are taken (${options.limitName})`,
    );
  }
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of createReadStream(path)) chunks.push(chunk as Buffer);
  } catch (error) {
    throw new InputFileError(`cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    return decodeUtf8(Buffer.concat(chunks));
  } catch (error) {
    if (error instanceof InvalidUtf8Error) throw new InputFileError(`${path}: not valid UTF-8 (at byte ${error.offset})`);
    throw error;
  }
}

/**
 * Parses a file holding one JSON document, and refuses text the databases cannot store (NUL,
 * unpaired surrogates) with the HTTP API's own 400, as every JSON body is checked there.
 */
function parseJsonDocument(text: string, path: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputFileError(`${path}: malformed JSON (${(error as Error).message})`);
  }
  const unstorable = unstorableTextError(value);
  if (unstorable) throw unstorable;
  return value;
}

/** Reads and parses a JSON file within the route's size limit. */
export async function readJsonFile(path: string, options: ReadOptions): Promise<unknown> {
  return parseJsonDocument(await readTextFile(path, options), path);
}
