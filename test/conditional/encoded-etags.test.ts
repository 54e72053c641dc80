import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType, expectStatus, VALID_LOAN } from '../records/fixtures.js';

// Long enough to be compressed (answers under 1 KiB are sent as they are).
const LONG_LOAN = { ...VALID_LOAN, f_borrower: 'Ada Lovelace '.repeat(100) };

describeEachDatabase('strong ETags per content coding of a record', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
    await defineType(t, 'acme', 'loan');
  });
  after(() => t.close());

  const get = (id: string, headers: Record<string, string> = {}) => t.as('acme', { method: 'GET', url: `/v1/records/${id}`, headers });
  const patch = (id: string, body: object, headers: Record<string, string>) =>
    t.as('acme', { method: 'PATCH', url: `/v1/records/${id}`, payload: body, headers });

  it('gives the identity, gzip and br bodies different strong tags, each with Vary and private, no-cache', async () => {
    const record = await createRecord(t, 'acme', 'loan', LONG_LOAN);
    const plain = await get(record.id, { 'accept-encoding': 'identity' });
    const gzip = await get(record.id, { 'accept-encoding': 'gzip' });
    const br = await get(record.id, { 'accept-encoding': 'br' });
    const tag = plain.headers.etag as string;
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(gzip.headers.etag, `${tag.slice(0, -1)}.gzip"`);
    assert.equal(br.headers.etag, `${tag.slice(0, -1)}.br"`);
    assert.equal(gunzipSync(gzip.rawPayload).toString(), plain.body);
    assert.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body);
    for (const answer of [plain, gzip, br]) {
      assert.match(String(answer.headers.vary), /accept-encoding/i);
      assert.equal(answer.headers['cache-control'], 'private, no-cache');
    }
  });

  it("revalidates a coding's tag with If-None-Match (304 naming it) and accepts it in If-Match on PATCH", async () => {
    const record = await createRecord(t, 'acme', 'loan', LONG_LOAN);
    const gzipTag = (await get(record.id, { 'accept-encoding': 'gzip' })).headers.etag as string;
    const held = await get(record.id, { 'accept-encoding': 'gzip', 'if-none-match': gzipTag });
    assert.equal(held.statusCode, 304);
    assert.equal(held.headers.etag, gzipTag);
    assert.match(String(held.headers.vary), /accept-encoding/i);

    const brTag = (await get(record.id, { 'accept-encoding': 'br' })).headers.etag as string;
    const patched = await patch(record.id, { status: 'in_review' }, { 'if-match': brTag, 'accept-encoding': 'br' });
    assert.equal(patched.statusCode, 200);
    assert.match(patched.headers.etag as string, /\.br"$/);
    expectStatus(await patch(record.id, { status: 'done' }, { 'if-match': gzipTag }), 412, 'precondition_failed');
    expectStatus(await patch(record.id, { status: 'done' }, { 'if-match': `W/${patched.headers.etag}` }), 412, 'precondition_failed');
    expectStatus(await patch(record.id, { status: 'done' }, { 'if-match': patched.headers.etag as string }), 200);
  });
});
