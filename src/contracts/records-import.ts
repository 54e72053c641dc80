import type { ImportEntry } from '../domain/records/import.js';
import { NdjsonBody } from './ndjson.js';

/** Imports are migrations of whole workboards: far larger than an API call. */
export const IMPORT_BODY_LIMIT_BYTES = 256 * 1_048_576;

/** The records of an import body (a JSON array or NDJSON); undefined when it is neither. */
export function importEntries(body: unknown): ImportEntry[] | undefined {
  if (body instanceof NdjsonBody) {
    return body.lines.map((line) =>
      'error' in line
        ? { index: line.line - 1, line: line.line, unreadable: line.error }
        : { index: line.line - 1, line: line.line, value: line.value },
    );
  }
  return Array.isArray(body) ? body.map((value: unknown, index) => ({ index, value })) : undefined;
}
