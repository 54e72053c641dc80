import { readJsonItems, type ByteSource } from '../lib/json-items.js';

/** Media types read as NDJSON (one JSON value per line); `application/json` is read as one array. */
export const NDJSON_MEDIA_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl'];

/** One line of an NDJSON body: its value, or why it is not JSON (or not UTF-8). */
export type NdjsonLine = { readonly line: number; readonly value: unknown } | { readonly line: number; readonly error: string };

/**
 * An NDJSON body read whole (blank lines skipped), so that each bad line can be named: the
 * records import's body, from HTTP or a CLI file. Its lines are read by the streaming reader of
 * lib/json-items.ts, as the event ingest reads its own, each decoded strictly and parsed alone.
 */
export class NdjsonBody {
  constructor(readonly lines: readonly NdjsonLine[]) {}

  static async read(source: ByteSource): Promise<NdjsonBody> {
    const lines: NdjsonLine[] = [];
    for await (const item of readJsonItems(source, 'ndjson')) {
      lines.push('problem' in item ? { line: item.position, error: item.problem } : { line: item.position, value: item.value });
    }
    return new NdjsonBody(lines);
  }
}
