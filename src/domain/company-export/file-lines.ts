/**
 * The lines of a byte stream, each without its newline, exactly as stored (no decoding), so
 * that a checksum over them is the checksum of the file. A last line without a newline is
 * reported as such: an export always ends with one.
 */
export async function* fileLines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<{ bytes: Buffer; terminated: boolean }> {
  let pending: Buffer[] = [];
  for await (const chunk of chunks) {
    let data = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let newline = data.indexOf(0x0a); newline !== -1; newline = data.indexOf(0x0a)) {
      pending.push(data.subarray(0, newline));
      yield { bytes: pending.length === 1 ? pending[0]! : Buffer.concat(pending), terminated: true };
      pending = [];
      data = data.subarray(newline + 1);
    }
    if (data.length > 0) pending.push(Buffer.from(data));
  }
  if (pending.length > 0) yield { bytes: Buffer.concat(pending), terminated: false };
}
