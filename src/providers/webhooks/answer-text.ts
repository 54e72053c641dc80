const encoder = new TextEncoder();

/**
 * The answer's body as text for the delivery's log: UTF-8 with invalid bytes replaced, NUL
 * replaced too (PostgreSQL's text cannot hold it), and cut at whole characters so that it
 * stays within `limitBytes` once encoded again (each replaced byte takes three).
 */
export function answerText(chunks: readonly Buffer[], limitBytes: number): string {
  const text = Buffer.concat(chunks).toString('utf8').replaceAll('\u0000', '\uFFFD');
  if (text.length * 3 <= limitBytes || Buffer.byteLength(text) <= limitBytes) return text;
  const { read } = encoder.encodeInto(text, new Uint8Array(limitBytes));
  return text.slice(0, read);
}
