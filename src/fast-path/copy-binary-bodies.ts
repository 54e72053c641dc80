import type { JoinedEvents } from './fast-path.js';

/** `PGCOPY\n\377\r\n\0`: the first bytes of PostgreSQL's binary COPY format. */
const SIGNATURE = Buffer.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00]);
/** The signature, the flags field and the header extension's length. */
const HEADER_BYTES = 19;
const COMMA = 0x2c;

/**
 * The rows of a `COPY (...) TO STDOUT (FORMAT binary)` whose last column is an event's stored
 * JSON, joined by commas `chunkEvents` rows at a time: the bytes are copied as PostgreSQL sent
 * them, never decoded into strings and encoded again. The format (PostgreSQL's "COPY", "Binary
 * Format"): the header, then per row a 16-bit field count and each field as a 32-bit length
 * (-1 for null) and its bytes, then a count of -1.
 */
export async function* joinedBodies(source: AsyncIterable<Buffer>, chunkEvents: number): AsyncGenerator<JoinedEvents> {
  let pending: Buffer = Buffer.alloc(0);
  let headerRead = false;
  let ended = false;
  let bodies: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    const buffer = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let at = 0;
    if (!headerRead) {
      if (buffer.length >= SIGNATURE.length && !buffer.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error('not a binary COPY stream');
      const rowsStart = buffer.length < HEADER_BYTES ? undefined : HEADER_BYTES + buffer.readInt32BE(HEADER_BYTES - 4);
      if (rowsStart === undefined || buffer.length < rowsStart) {
        pending = buffer;
        continue;
      }
      at = rowsStart;
      headerRead = true;
    }
    while (!ended && buffer.length - at >= 2) {
      const fields = buffer.readInt16BE(at);
      if (fields === -1) {
        ended = true;
        break;
      }
      const row = lastField(buffer, at + 2, fields);
      if (!row) break;
      bodies.push(row.value);
      size += row.value.length;
      at = row.end;
      if (bodies.length === chunkEvents) {
        yield joined(bodies, size);
        bodies = [];
        size = 0;
      }
    }
    pending = buffer.subarray(at);
  }
  if (!ended) throw new Error('a binary COPY stream ended before its trailer');
  if (bodies.length > 0) yield joined(bodies, size);
}

/** The last field of the row whose fields start at `at`, and where the row ends; null when the row is not all in `buffer` yet. */
function lastField(buffer: Buffer, at: number, fields: number): { value: Buffer; end: number } | null {
  let value: Buffer | undefined;
  for (let field = 0; field < fields; field++) {
    if (buffer.length - at < 4) return null;
    const length = buffer.readInt32BE(at);
    at += 4;
    if (length === -1) {
      value = undefined;
      continue;
    }
    if (buffer.length - at < length) return null;
    value = buffer.subarray(at, at + length);
    at += length;
  }
  if (!value) throw new Error('a binary COPY row without its stored JSON');
  return { value, end: at };
}

function joined(bodies: readonly Buffer[], size: number): JoinedEvents {
  const bytes = Buffer.allocUnsafe(size + bodies.length - 1);
  let at = 0;
  for (let i = 0; i < bodies.length; i++) {
    if (i > 0) bytes[at++] = COMMA;
    at += bodies[i]!.copy(bytes, at);
  }
  return { events: bodies.length, bytes };
}
