import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { httpRequest } from '../hardening/helpers/http.js';

const SEND_TIMEOUT_MS = 2000;
const PAGE = '/v1/events?limit=10000';

// Answers over 1 KB are sent gzip- or brotli-encoded when the client accepts it; the large
// event pages stay streams through the encoder and keep their place rules (large-pages.ts).
describeEachDatabase('compression', (kind) => {
  const COMPANY = 'compress-co';
  let t: TestApp;
  let token: string;
  before(async () => {
    t = await createTestApp(kind, { env: { WRS_LARGE_PAGE_SEND_TIMEOUT_MS: String(SEND_TIMEOUT_MS), WRS_LARGE_PAGE_WAIT_MS: '1000' } });
    // Random text compresses poorly, so the encoded page is still far larger than socket buffers.
    const lines = Array.from({ length: 10_000 }, (_, i) =>
      JSON.stringify({ type: 'user_flow_step_viewed', flow_key: `flow-${i % 7}`, text: randomBytes(450).toString('base64') }),
    );
    const ingest = await t.admin({
      method: 'POST',
      url: `/admin/v1/companies/${COMPANY}/events`,
      headers: { 'content-type': 'application/x-ndjson' },
      payload: lines.join('\n'),
    });
    assert.equal(ingest.statusCode, 200, ingest.body);
    token = await t.userToken(COMPANY);
  });
  after(() => t.close());

  it('sends a 10,000-event page brotli- or gzip-encoded, streamed, decoding to the same JSON', async () => {
    const plain = await t.as(COMPANY, { method: 'GET', url: PAGE });
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.json().count, 10_000);
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const encoded = await t.as(COMPANY, { method: 'GET', url: PAGE, headers: { 'accept-encoding': encoding } });
      assert.equal(encoded.statusCode, 200);
      assert.equal(encoded.headers['content-encoding'], encoding);
      assert.match(String(encoded.headers.vary), /accept-encoding/i);
      assert.equal(encoded.headers['content-length'], undefined, 'sent as a stream, not buffered to count it');
      assert.ok(encoded.rawPayload.length < plain.rawPayload.length * 0.9, `${encoding}: ${encoded.rawPayload.length} bytes`);
      assert.deepEqual(JSON.parse(decode(encoded.rawPayload).toString('utf8')), plain.json());
    }
  });

  it('leaves small answers and PDFs as they are', async () => {
    const small = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(small.statusCode, 200);
    assert.equal(small.headers['content-encoding'], undefined);
    assert.deepEqual(small.json(), { status: 'ok' });

    const pdfBytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(8000, 'a')]);
    const stored = await t.ctx.files.store(COMPANY, {
      recordId: 'rec-1',
      filename: 'a.pdf',
      contentType: 'application/pdf',
      templateId: 'tpl',
      bytes: new Uint8Array(pdfBytes),
      pages: 1,
      sha256: '0'.repeat(64),
    });
    const pdf = await t.as(COMPANY, { method: 'GET', url: `/v1/records/rec-1/files/${stored.id}`, headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-encoding'], undefined);
    assert.deepEqual(pdf.rawPayload, pdfBytes);
  });

  it('cuts off a client that reads nothing of an encoded large page and gives its place back', { timeout: 60_000 }, async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    const requested = performance.now();
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    socket.write(`GET ${PAGE} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n`);
    socket.pause();
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await sleep(300);

    // The company's one place is held: its next large page waits, then is refused.
    const waiting = await httpRequest(port, 'GET', PAGE, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' } });
    assert.equal(waiting.status, 503, 'the stalled encoded page holds the place');

    const openConnections = () =>
      new Promise<number>((resolve, reject) => t.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
    const started = performance.now();
    while ((await openConnections()) > 0) {
      assert.ok(performance.now() - started < SEND_TIMEOUT_MS + 15_000, 'the stalled connection is cut at the send timeout');
      await sleep(100);
    }
    assert.ok(performance.now() - requested >= SEND_TIMEOUT_MS - 500, 'cut at the send timeout, not before');
    socket.resume();
    await closed;

    const again = await httpRequest(port, 'GET', PAGE, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(again.status, 200);
    assert.equal(again.json().count, 10_000);
  });
});
