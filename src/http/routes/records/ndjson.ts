/** One line of an NDJSON body: its value, or why it is not JSON. */
export type NdjsonLine = { readonly line: number; readonly value: unknown } | { readonly line: number; readonly error: string };

/** An NDJSON body, parsed line by line (blank lines skipped), so that each bad line can be named. */
export class NdjsonBody {
  constructor(readonly lines: readonly NdjsonLine[]) {}

  static parse(text: string): NdjsonBody {
    const lines: NdjsonLine[] = [];
    text.split('\n').forEach((raw, i) => {
      const source = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (source.trim() === '') return;
      try {
        lines.push({ line: i + 1, value: JSON.parse(source) as unknown });
      } catch (error) {
        lines.push({ line: i + 1, error: `malformed JSON (${(error as Error).message})` });
      }
    });
    return new NdjsonBody(lines);
  }
}

export const NDJSON_CONTENT_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl'];
