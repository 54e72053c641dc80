import type { ImportEntry } from '../../../domain/records/import.js';
import { readJsonItems, type ByteSource } from '../../../lib/json-items.js';

/** One line of an NDJSON body: its value, or why it is not JSON (or not UTF-8). */
export type NdjsonLine = { readonly line: number; readonly value: unknown } | { readonly line: number; readonly error: string };

/** An NDJSON body, read line by line (blank lines skipped), so that each bad line can be named. */
export class NdjsonBody {
  constructor(readonly lines: readonly NdjsonLine[]) {}

  /** Reads the lines as the event ingest does: each one decoded strictly and parsed on its own. */
  static async read(source: ByteSource): Promise<NdjsonBody> {
    const lines: NdjsonLine[] = [];
    for await (const item of readJsonItems(source, 'ndjson')) {
      lines.push('problem' in item ? { line: item.position, error: item.problem } : { line: item.position, value: item.value });
    }
    return new NdjsonBody(lines);
  }
}

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

export { NDJSON_MEDIA_TYPES as NDJSON_CONTENT_TYPES } from '../../../lib/json-items.js';
