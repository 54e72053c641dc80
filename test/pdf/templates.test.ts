import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import { PDFDocument } from '@pdfme/pdf-lib';
import { describeEachDatabase } from '../helpers/databases.js';
import { oneRendererForTheFile } from '../helpers/shared-pdf-renderer.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { basePdfBase64, minimalTemplate } from './fixtures/templates.js';

// The file's apps share one renderer, whose thread loads pdfme once for all their trial renders.
const SHARED_RENDERER = oneRendererForTheFile();

const url = (company: string, templateId: string) => `/admin/v1/companies/${company}/templates/${templateId}`;

describeEachDatabase('PDF templates (operator API)', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind, { env: { WRS_PDF_WORKERS: '1' }, context: SHARED_RENDERER });
  });
  after(() => t.close());

  const put = (company: string, templateId: string, payload: unknown) => t.admin({ method: 'PUT', url: url(company, templateId), payload: payload as object });

  it('stores, replaces, reads and deletes a template', async () => {
    const created = await put('acme', 'invoice', minimalTemplate());
    assert.equal(created.statusCode, 201, created.body);
    const summary = created.json();
    assert.equal(summary.id, 'invoice');
    assert.equal(summary.company_id, 'acme');
    assert.equal(summary.pages, 1);
    assert.ok(summary.size_bytes > 0);
    assert.match(summary.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const changed = { ...minimalTemplate(), schemas: [...minimalTemplate().schemas, minimalTemplate().schemas[0]!] };
    const replaced = await put('acme', 'invoice', changed);
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.equal(replaced.json().pages, 2);
    assert.equal(replaced.json().created_at, summary.created_at);

    const read = await t.admin({ method: 'GET', url: url('acme', 'invoice') });
    assert.equal(read.statusCode, 200);
    assert.deepEqual(read.json(), changed);

    const deleted = await t.admin({ method: 'DELETE', url: url('acme', 'invoice') });
    assert.equal(deleted.statusCode, 204);
    assert.equal(deleted.body, '');
    const gone = await t.admin({ method: 'GET', url: url('acme', 'invoice') });
    assert.equal(gone.statusCode, 404);
    assert.equal(gone.json().code, 'not_found');
    const again = await t.admin({ method: 'DELETE', url: url('acme', 'invoice') });
    assert.equal(again.statusCode, 404);
  });

  it("keeps each company's templates apart", async () => {
    assert.equal((await put('acme', 'letter', minimalTemplate())).statusCode, 201);
    const other = await t.admin({ method: 'GET', url: url('globex', 'letter') });
    assert.equal(other.statusCode, 404);
    const otherDelete = await t.admin({ method: 'DELETE', url: url('globex', 'letter') });
    assert.equal(otherDelete.statusCode, 404);
    assert.equal((await t.admin({ method: 'GET', url: url('acme', 'letter') })).statusCode, 200);
  });

  it('accepts a base PDF given as base64 or as a data URI', async () => {
    const base64 = await basePdfBase64();
    const plain = await put('acme', 'on-base', { ...minimalTemplate(), basePdf: base64 });
    assert.equal(plain.statusCode, 201, plain.body);
    assert.equal(plain.json().pages, 1);
    const dataUri = await put('acme', 'on-base-uri', { ...minimalTemplate(), basePdf: `data:application/pdf;base64,${base64}` });
    assert.equal(dataUri.statusCode, 201, dataUri.body);
  });

  it("refuses templates that pdfme's check or a trial render rejects, naming the problem", async () => {
    const page = minimalTemplate().schemas[0]![0]!;
    const cases: Array<{ name: string; body: unknown; contains: string }> = [
      { name: 'not an object', body: [minimalTemplate()], contains: 'body' },
      { name: 'no schemas', body: { basePdf: minimalTemplate().basePdf }, contains: 'schemas' },
      {
        name: 'schema without a position',
        body: { ...minimalTemplate(), schemas: [[{ name: 'a', type: 'text', width: 10, height: 10 }]] },
        contains: 'schemas.0.0.position',
      },
      {
        name: 'unknown schema type',
        body: { ...minimalTemplate(), schemas: [[{ ...page, type: 'hologram' }]] },
        contains: 'hologram',
      },
      {
        name: 'font that does not ship with the service',
        body: { ...minimalTemplate(), schemas: [[{ ...page, fontName: 'ComicSans' }]] },
        contains: 'ComicSans',
      },
      { name: 'no pages', body: { ...minimalTemplate(), schemas: [] }, contains: 'at least one page' },
      {
        name: 'zero-width page',
        body: { ...minimalTemplate(), basePdf: { width: 0, height: 297, padding: [0, 0, 0, 0] } },
        contains: 'basePdf.width',
      },
      {
        name: 'base PDF by URL',
        body: { ...minimalTemplate(), basePdf: 'https://example.com/form.pdf' },
        contains: 'URLs are not fetched',
      },
      {
        name: 'base PDF that is not a PDF',
        body: { ...minimalTemplate(), basePdf: Buffer.from('GIF89a not a pdf').toString('base64') },
        contains: '%PDF-',
      },
      {
        name: 'base PDF that is a truncated PDF',
        body: { ...minimalTemplate(), basePdf: (await basePdfBase64()).slice(0, 40) },
        contains: 'cannot render',
      },
    ];
    for (const { name, body, contains } of cases) {
      const response = await put('acme', 'broken', body);
      assert.equal(response.statusCode, 400, `${name}: ${response.body}`);
      assert.equal(response.json().code, 'invalid_body', name);
      assert.ok(response.json().message.includes(contains), `${name}: ${response.json().message}`);
    }
    assert.equal((await t.admin({ method: 'GET', url: url('acme', 'broken') })).statusCode, 404);
  });

  it('refuses a template ID that is not a plain name', async () => {
    const response = await put('acme', 'bad%20id', minimalTemplate());
    assert.equal(response.statusCode, 400);
    assert.match(response.json().message, /template ID/);
  });

  it('takes templates larger than the general body limit, up to WRS_TEMPLATE_LIMIT_BYTES', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([595.28, 841.89]).drawRectangle({ x: 40, y: 40, width: 100, height: 20 });
    await doc.attach(randomBytes(1_200_000), 'payload.bin', { mimeType: 'application/octet-stream' });
    const big = { ...minimalTemplate(), basePdf: Buffer.from(await doc.save({ useObjectStreams: false })).toString('base64') };
    assert.ok(JSON.stringify(big).length > t.ctx.config.bodyLimitBytes);
    const response = await put('acme', 'big', big);
    assert.equal(response.statusCode, 201, response.body);
  });

  it('requires the operator token', async () => {
    const response = await t.app.inject({ method: 'PUT', url: url('acme', 'x'), payload: minimalTemplate() });
    assert.equal(response.statusCode, 401);
    const asUser = await t.as('acme', { method: 'GET', url: url('acme', 'letter') });
    assert.equal(asUser.statusCode, 401);
  });

  it('documents the routes in OpenAPI', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const path = document.paths['/admin/v1/companies/{company}/templates/{templateId}'];
    assert.ok(path.put && path.get && path.delete);
    assert.ok(path.put.responses['413']);
  });
});

describeEachDatabase('PDF template size limit', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind, { env: { WRS_PDF_WORKERS: '1', WRS_TEMPLATE_LIMIT_BYTES: '4096' }, context: SHARED_RENDERER });
  });
  after(() => t.close());

  it('answers 413 payload_too_large past WRS_TEMPLATE_LIMIT_BYTES', async () => {
    const template = { ...minimalTemplate(), schemas: [[{ ...minimalTemplate().schemas[0]![0]!, content: 'x'.repeat(5000) }]] };
    const response = await t.admin({ method: 'PUT', url: url('acme', 'huge'), payload: template });
    assert.equal(response.statusCode, 413);
    assert.equal(response.json().code, 'payload_too_large');
    const fits = await t.admin({ method: 'PUT', url: url('acme', 'small'), payload: minimalTemplate() });
    assert.equal(fits.statusCode, 201, fits.body);
  });
});
