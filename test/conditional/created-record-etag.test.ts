import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { defineType, expectStatus, VALID_LOAN } from '../records/fixtures.js';

const STRONG_TAG = /^"[A-Za-z0-9_-]{43}"$/;

describeEachDatabase('the ETag of a created record', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
    await defineType(t, 'acme', 'loan');
  });
  after(() => t.close());

  const create = (body: object, headers: Record<string, string> = {}) => t.as('acme', { method: 'POST', url: '/v1/records/loan', payload: body, headers });
  const get = (id: string, headers: Record<string, string> = {}) => t.as('acme', { method: 'GET', url: `/v1/records/${id}`, headers });

  it('answers on the 201 the strong ETag a GET of the new record then gives, the hash of the body as answered', async () => {
    for (const body of [VALID_LOAN, { f_amount: 1, f_borrower: 'Bo' }]) {
      const created = await create(body);
      const record = expectStatus(created, 201);
      const etag = created.headers.etag as string;
      assert.match(etag, STRONG_TAG);
      assert.equal(etag, `"${createHash('sha256').update(created.body).digest('base64url')}"`);
      const read = await get(record.id);
      assert.equal(read.headers.etag, etag);
      assert.equal(read.body, created.body, 'the same bytes as a GET answers');
    }
  });

  it('lets the client revalidate and update with the tag of the 201, without a GET first', async () => {
    const created = await create(VALID_LOAN);
    const record = expectStatus(created, 201);
    const etag = created.headers.etag as string;
    const unchanged = await get(record.id, { 'if-none-match': etag });
    assert.equal(unchanged.statusCode, 304);
    const patched = await t.as('acme', {
      method: 'PATCH',
      url: `/v1/records/${record.id}`,
      payload: { status: 'in_review' },
      headers: { 'if-match': etag },
    });
    expectStatus(patched, 200);
    const stale = await t.as('acme', {
      method: 'PATCH',
      url: `/v1/records/${record.id}`,
      payload: { status: 'done' },
      headers: { 'if-match': etag },
    });
    expectStatus(stale, 412, 'precondition_failed');
  });

  it('answers no ETag with a refused create', async () => {
    const refused = await create({ f_amount: 'lots' });
    expectStatus(refused, 400);
    assert.equal(refused.headers.etag, undefined);
  });
});
