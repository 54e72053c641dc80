import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { oneRendererForTheFile } from '../helpers/shared-pdf-renderer.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineRecordType, INVOICE_TYPE, pathOf, putTemplate } from '../pdf/fixtures/records.js';
import { invoiceTemplate } from '../pdf/fixtures/templates.js';

// The file's apps share one PDF renderer, whose thread loads pdfme once for all their renders.
const SHARED_RENDERER = oneRendererForTheFile();

describeEachDatabase('conditional PDF downloads', (kind) => {
  let t: TestApp;
  let path: string;
  let sha256: string;
  let recordToken: string;

  before(async () => {
    t = await createTestApp(kind, { env: { WRS_PDF_WORKERS: '1' }, context: SHARED_RENDERER });
    await defineRecordType(t, 'acme', 'invoice', INVOICE_TYPE);
    await putTemplate(t, 'acme', 'invoice', invoiceTemplate());
    const invoice = await createRecord(t, 'acme', 'invoice', { f_customer: 'Ada Ltd', f_amount: 10, f_paid: false });
    const step = await t.as('acme', {
      method: 'PUT',
      url: `/v1/records/${invoice.id}/steps`,
      payload: { type: 'pdf_create', inputs: { pdf_filename: 'invoice', template_id: 'invoice' } },
    });
    assert.equal(step.statusCode, 200, step.body);
    path = pathOf(step.json().details.download_url);
    sha256 = step.json().details.sha256;
    const minted = await t.as('acme', { method: 'POST', url: `/v1/records/${invoice.id}/tokens`, payload: {} });
    assert.equal(minted.statusCode, 201, minted.body);
    recordToken = minted.json().token;
  });
  after(() => t.close());

  const download = (headers: Record<string, string> = {}) => t.as('acme', { method: 'GET', url: path, headers });

  it('carries the content hash as a strong ETag', async () => {
    const response = await download();
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers.etag, `"${sha256}"`);
    assert.equal(createHash('sha256').update(response.rawPayload).digest('hex'), sha256);
  });

  it('answers 304 with no body to If-None-Match naming it, for the company and for a record token', async () => {
    for (const header of [`"${sha256}"`, `W/"${sha256}"`, `"other", "${sha256}"`, '*']) {
      const response = await download({ 'if-none-match': header });
      assert.equal(response.statusCode, 304, header);
      assert.equal(response.rawPayload.byteLength, 0);
      assert.equal(response.headers.etag, `"${sha256}"`);
      assert.equal(response.headers['content-type'], undefined);
    }
    const asToken = await t.app.inject({
      method: 'GET',
      url: path,
      headers: { authorization: `Bearer ${recordToken}`, 'if-none-match': `"${sha256}"` },
    });
    assert.equal(asToken.statusCode, 304);
  });

  it('sends the bytes to a stale If-None-Match, 400 to a malformed one, and 404 for another company whatever it says', async () => {
    const stale = await download({ 'if-none-match': '"0000"' });
    assert.equal(stale.statusCode, 200);
    assert.equal(createHash('sha256').update(stale.rawPayload).digest('hex'), sha256);
    const malformed = await download({ 'if-none-match': sha256 });
    assert.equal(malformed.statusCode, 400);
    assert.equal(malformed.json().code, 'invalid_header');
    const other = await t.as('globex', { method: 'GET', url: path, headers: { 'if-none-match': '*' } });
    assert.equal(other.statusCode, 404);
  });
});
