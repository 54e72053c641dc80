// Large pages on PostgreSQL arrive by a binary COPY whose stored JSON is joined as the bytes
// arrive (src/fast-path/copy-binary-bodies.ts): the parser, over every way the stream can be cut,
// and the page through HTTP, byte for byte the plain path's, with filter values that need quoting.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { joinedBodies } from '../../src/fast-path/copy-binary-bodies.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, ingestOk } from './event-fixtures.js';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** A binary COPY stream of rows of text fields (null as null), with a header extension of `extension` bytes. */
function copyStream(rows: readonly (readonly (string | null)[])[], extension = 0): Buffer {
  const parts = [SIGNATURE, int32(0), int32(extension), Buffer.alloc(extension)];
  for (const row of rows) {
    parts.push(int16(row.length));
    for (const field of row) {
      if (field === null) parts.push(int32(-1));
      else parts.push(int32(Buffer.byteLength(field)), Buffer.from(field));
    }
  }
  parts.push(int16(-1));
  return Buffer.concat(parts);
}
const int16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff]);
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
async function* pieces(bytes: Buffer, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}
async function chunksOf(source: AsyncIterable<Buffer>, chunkEvents: number) {
  const chunks: { events: number; text: string }[] = [];
  for await (const chunk of joinedBodies(source, chunkEvents)) chunks.push({ events: chunk.events, text: chunk.bytes.toString() });
  return chunks;
}

describe('binary COPY rows joined as they arrive', () => {
  const bodies = ['{"id":"a","text":"héllo \\"quoted\\""}', '{"id":"b","emoji":"🎉"}', '{"id":"c"}', '{"id":"d","tab":"\\t"}', '{"id":"e"}'];
  const stream = copyStream(
    bodies.map((body, i) => [`id-${i}`, i % 2 ? null : '2026-01-01', body]),
    3,
  );

  it('joins the last field of each row by commas, a chunk at a time, however the stream is cut', async () => {
    for (const size of [1, 2, 3, 7, 19, 20, 64, stream.length]) {
      const chunks = await chunksOf(pieces(stream, size), 2);
      assert.deepEqual(
        chunks,
        [
          { events: 2, text: `${bodies[0]},${bodies[1]}` },
          { events: 2, text: `${bodies[2]},${bodies[3]}` },
          { events: 1, text: bodies[4] },
        ],
        `cut every ${size} bytes`,
      );
    }
  });

  it('reads a page with no rows, and refuses what is not a whole binary COPY', async () => {
    assert.deepEqual(await chunksOf(pieces(copyStream([]), 5), 2), []);
    await assert.rejects(chunksOf(pieces(Buffer.concat([Buffer.from('PGCOPX\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]), 4), 2), /not a binary COPY/);
    await assert.rejects(chunksOf(pieces(stream.subarray(0, stream.length - 2), 9), 2), /ended before its trailer/);
    await assert.rejects(chunksOf(pieces(copyStream([['x', null]]), 9), 2), /without its stored JSON/);
  });
});

describeEachDatabase('a large page sent by the fast path, byte for byte the plain path', (kind) => {
  let plain: TestApp;
  let fast: TestApp;
  const odd = `it's "odd" \\ 'very' $1 ünïcode`;
  before(async () => {
    plain = await createTestApp(kind, { env: { WRS_FAST_PATH: 'false' } });
    fast = await createTestApp(kind, { database: plain.database });
    const events = Array.from({ length: 1300 }, (_, i) =>
      anEvent({
        id: `q${String(i).padStart(5, '0')}`,
        flow_key: i % 2 ? odd : 'plain',
        text: i % 3 ? `line\nbreak, tab\t, quote " and ☃ ${i}` : null,
        created_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
      }),
    );
    await ingestOk(plain, 'copy-co', events);
  });
  after(async () => {
    await fast?.close();
    await plain?.close();
  });

  for (const url of [
    `/v1/events?limit=2000&flow_key=${encodeURIComponent(odd)}`,
    '/v1/events?limit=1100&order_by=-created_at',
    `/v1/events?limit=5000&flow_key__contains=${encodeURIComponent('\'odd" \\')}`,
    '/v1/events?limit=1001&page=2',
  ]) {
    it(`answers ${url} alike`, async () => {
      const [fastAnswer, plainAnswer] = [await fast.as('copy-co', { method: 'GET', url }), await plain.as('copy-co', { method: 'GET', url })];
      assert.equal(fastAnswer.statusCode, 200, fastAnswer.body);
      assert.ok(fastAnswer.rawPayload.equals(plainAnswer.rawPayload), 'the bodies differ');
      const { count, results } = fastAnswer.json() as { count: number; results: { id: string }[] };
      assert.equal(count, results.length);
    });
  }
});
