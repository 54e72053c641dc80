import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { oneRendererForTheFile } from '../helpers/shared-pdf-renderer.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { readPdf } from './fixtures/read-pdf.js';
import { createRecord, defineRecordType, INVOICE_TYPE, MEMO_TYPE, pathOf, putTemplate } from './fixtures/records.js';
import { invoiceTemplate, requiredCustomerTemplate } from './fixtures/templates.js';

// The file's apps share one PDF renderer, whose thread loads pdfme once for all their renders.
const SHARED_RENDERER = oneRendererForTheFile();

const step = (inputs: Record<string, unknown>, type = 'pdf_create') => ({ type, inputs });

describeEachDatabase('pdf_create step', (kind) => {
  let t: TestApp;
  let invoice: { id: string; created_at: string; status: string };
  let otherInvoice: { id: string };
  let memo: { id: string };
  let globexInvoice: { id: string };

  const runStep = (company: string, recordId: string, payload: unknown) =>
    t.as(company, { method: 'PUT', url: `/v1/records/${recordId}/steps`, payload: payload as object });

  before(async () => {
    t = await createTestApp(kind, { env: { WRS_PDF_WORKERS: '1' }, context: SHARED_RENDERER });
    for (const company of ['acme', 'globex']) {
      await defineRecordType(t, company, 'invoice', INVOICE_TYPE);
      await putTemplate(t, company, 'invoice', invoiceTemplate());
    }
    await defineRecordType(t, 'acme', 'memo', MEMO_TYPE);
    await putTemplate(t, 'acme', 'needs-customer', requiredCustomerTemplate());
    invoice = await createRecord(t, 'acme', 'invoice', { f_customer: 'Zoë Müller GmbH', f_amount: 1234.5, f_paid: true });
    otherInvoice = await createRecord(t, 'acme', 'invoice', { f_customer: 'Other Ltd' });
    memo = await createRecord(t, 'acme', 'memo', { f_note: 'no customer here' });
    globexInvoice = await createRecord(t, 'globex', 'invoice', { f_customer: 'Globex Corp' });
  });
  after(() => t.close());

  describe('rendering and download', () => {
    let details: Record<string, any>;
    let pdf: Buffer;

    before(async () => {
      const response = await runStep('acme', invoice.id, step({ pdf_filename: 'Invoice 42', template_id: 'invoice' }));
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().message, 'PDF created');
      details = response.json().details;
      const download = await t.as('acme', { method: 'GET', url: pathOf(details.download_url) });
      assert.equal(download.statusCode, 200, download.body);
      assert.equal(download.headers['content-type'], 'application/pdf');
      assert.equal(download.headers['content-disposition'], 'attachment; filename="Invoice 42.pdf"');
      pdf = download.rawPayload;
    });

    it("answers the file's details, with .pdf appended to the name", () => {
      assert.deepEqual(Object.keys(details).sort(), ['content_type', 'created_at', 'download_url', 'file_id', 'pages', 'pdf_filename', 'sha256', 'size_bytes']);
      assert.equal(details.pdf_filename, 'Invoice 42.pdf');
      assert.equal(details.content_type, 'application/pdf');
      assert.equal(details.pages, 2);
      assert.match(details.file_id, /^[0-9a-f-]{36}$/);
      assert.match(details.sha256, /^[0-9a-f]{64}$/);
      assert.match(details.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(details.download_url, `http://wrs.test/v1/records/${invoice.id}/files/${details.file_id}`);
    });

    it('downloads exactly the bytes described: size and SHA-256 match', () => {
      assert.equal(pdf.byteLength, details.size_bytes);
      assert.equal(createHash('sha256').update(pdf).digest('hex'), details.sha256);
      assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    });

    it("is a real PDF with the template's pages and the record's values", async () => {
      const { pages, text } = await readPdf(pdf);
      assert.equal(pages, 2);
      assert.ok(text[0]!.includes('Zoë Müller GmbH'), text[0]);
      assert.ok(text[0]!.includes('1234.5'), text[0]);
      assert.ok(text[0]!.includes('true'), text[0]);
      assert.ok(text[0]!.includes(`Record ${invoice.id} is ${invoice.status}`), text[0]);
      assert.ok(text[1]!.includes(invoice.created_at), text[1]);
    });

    it('keeps a name that already ends in .pdf, in any case', async () => {
      const response = await runStep('acme', invoice.id, step({ pdf_filename: 'scan.PDF', template_id: 'invoice' }));
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().details.pdf_filename, 'scan.PDF');
    });

    it('sends a non-ASCII file name as RFC 5987 filename* with an ASCII fallback', async () => {
      const response = await runStep('acme', invoice.id, step({ pdf_filename: 'Überweisung "März" €', template_id: 'invoice' }));
      assert.equal(response.statusCode, 200, response.body);
      const download = await t.as('acme', { method: 'GET', url: pathOf(response.json().details.download_url) });
      assert.equal(download.statusCode, 200);
      assert.equal(
        download.headers['content-disposition'],
        `attachment; filename="_berweisung _M_rz_ _.pdf"; filename*=UTF-8''%C3%9Cberweisung%20%22M%C3%A4rz%22%20%E2%82%AC.pdf`,
      );
    });

    it("serves the file only to the record's company, under that record", async () => {
      const path = pathOf(details.download_url);
      const otherCompany = await t.as('globex', { method: 'GET', url: path });
      assert.equal(otherCompany.statusCode, 404);
      assert.equal(otherCompany.json().code, 'not_found');
      const otherRecord = await t.as('acme', { method: 'GET', url: path.replace(invoice.id, otherInvoice.id) });
      assert.equal(otherRecord.statusCode, 404);
      const unknownFile = await t.as('acme', { method: 'GET', url: `/v1/records/${invoice.id}/files/nope` });
      assert.equal(unknownFile.statusCode, 404);
      const anonymous = await t.app.inject({ method: 'GET', url: path });
      assert.equal(anonymous.statusCode, 401);
    });

    it('lets a record token for the record download, and no other record token', async () => {
      const mint = async (recordId: string) => {
        const response = await t.as('acme', { method: 'POST', url: `/v1/records/${recordId}/tokens`, payload: {} });
        assert.equal(response.statusCode, 201, response.body);
        return response.json().token as string;
      };
      const path = pathOf(details.download_url);
      const own = await t.app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${await mint(invoice.id)}` } });
      assert.equal(own.statusCode, 200, own.body);
      assert.equal(createHash('sha256').update(own.rawPayload).digest('hex'), details.sha256);

      const otherToken = await mint(otherInvoice.id);
      const other = await t.app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${otherToken}` } });
      assert.equal(other.statusCode, 403);
      assert.equal(other.json().code, 'forbidden');
      // Pointing the path at the token's own record does not reach another record's file.
      const swapped = await t.app.inject({
        method: 'GET',
        url: path.replace(invoice.id, otherInvoice.id),
        headers: { authorization: `Bearer ${otherToken}` },
      });
      assert.equal(swapped.statusCode, 404);
    });

    it('does not let a record token run steps, even on its own record', async () => {
      const minted = await t.as('acme', { method: 'POST', url: `/v1/records/${invoice.id}/tokens`, payload: {} });
      const response = await t.app.inject({
        method: 'PUT',
        url: `/v1/records/${invoice.id}/steps`,
        headers: { authorization: `Bearer ${minted.json().token}` },
        payload: step({ pdf_filename: 'a', template_id: 'invoice' }),
      });
      assert.equal(response.statusCode, 403);
      assert.equal(response.json().code, 'forbidden');
    });

    it('keeps rendered files downloadable after their template is deleted', async () => {
      await putTemplate(t, 'acme', 'short-lived', invoiceTemplate());
      const response = await runStep('acme', invoice.id, step({ pdf_filename: 'keep', template_id: 'short-lived' }));
      assert.equal(response.statusCode, 200, response.body);
      const deleted = await t.admin({ method: 'DELETE', url: '/admin/v1/companies/acme/templates/short-lived' });
      assert.equal(deleted.statusCode, 204);
      const download = await t.as('acme', { method: 'GET', url: pathOf(response.json().details.download_url) });
      assert.equal(download.statusCode, 200);
    });
  });

  describe('refusals', () => {
    it('refuses a step type other than pdf_create, naming the supported types', async () => {
      const response = await runStep('acme', invoice.id, step({ pdf_filename: 'a', template_id: 'invoice' }, 'email_send'));
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().code, 'invalid_body');
      assert.match(response.json().message, /email_send/);
      assert.match(response.json().message, /pdf_create/);
      assert.deepEqual(response.json().supported_types, ['pdf_create']);
    });

    it('refuses a body without type or inputs, or with unknown keys', async () => {
      for (const payload of [{ inputs: {} }, { type: 'pdf_create' }, { ...step({ pdf_filename: 'a', template_id: 'invoice' }), extra: 1 }]) {
        const response = await runStep('acme', invoice.id, payload);
        assert.equal(response.statusCode, 400, JSON.stringify(payload));
        assert.equal(response.json().code, 'invalid_body');
      }
    });

    it('refuses missing and non-string inputs, all at once', async () => {
      const missing = await runStep('acme', invoice.id, step({}));
      assert.equal(missing.statusCode, 400);
      assert.match(missing.json().message, /inputs\.pdf_filename is required/);
      assert.match(missing.json().message, /inputs\.template_id is required/);

      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ pdf_filename: 42, template_id: 'invoice' }, /inputs\.pdf_filename must be a string/],
        [{ pdf_filename: 'a', template_id: true }, /inputs\.template_id must be a string/],
        [{ pdf_filename: null, template_id: 'invoice' }, /inputs\.pdf_filename must be a string/],
        [{ pdf_filename: ['a'], template_id: 'invoice' }, /inputs\.pdf_filename must be a string/],
        [{ pdf_filename: 'a', template_id: 'invoice', colour: 'red' }, /unknown input 'inputs\.colour'/],
      ];
      for (const [inputs, message] of cases) {
        const response = await runStep('acme', invoice.id, step(inputs));
        assert.equal(response.statusCode, 400, JSON.stringify(inputs));
        assert.equal(response.json().code, 'invalid_body');
        assert.match(response.json().message, message);
      }
    });

    it('refuses file names that are not plain, safe names', async () => {
      const unsafe = [
        '',
        '   ',
        '../etc/passwd',
        'reports/q1',
        'C:\\temp\\x',
        'a\u0000b',
        'line\nbreak',
        'tab\there',
        '.',
        '..',
        'x'.repeat(252),
        'evil\u202Efdp.exe',
      ];
      for (const name of unsafe) {
        const response = await runStep('acme', invoice.id, step({ pdf_filename: name, template_id: 'invoice' }));
        assert.equal(response.statusCode, 400, JSON.stringify(name));
        assert.equal(response.json().code, 'invalid_body');
        assert.match(response.json().message, /inputs\.pdf_filename/);
      }
      const longest = await runStep('acme', invoice.id, step({ pdf_filename: 'x'.repeat(251), template_id: 'invoice' }));
      assert.equal(longest.statusCode, 200, longest.body);
    });

    it("refuses an unknown template with template_not_found, also another company's", async () => {
      const unknown = await runStep('acme', invoice.id, step({ pdf_filename: 'a', template_id: 'no-such-template' }));
      assert.equal(unknown.statusCode, 400);
      assert.equal(unknown.json().code, 'template_not_found');
      assert.match(unknown.json().message, /no-such-template/);
      const foreign = await runStep('globex', globexInvoice.id, step({ pdf_filename: 'a', template_id: 'needs-customer' }));
      assert.equal(foreign.statusCode, 400);
      assert.equal(foreign.json().code, 'template_not_found');
    });

    it("answers 404 for an unknown record and for another company's record", async () => {
      const unknown = await runStep('acme', 'no-such-record', step({ pdf_filename: 'a', template_id: 'invoice' }));
      assert.equal(unknown.statusCode, 404);
      assert.equal(unknown.json().code, 'not_found');
      const foreign = await runStep('globex', invoice.id, step({ pdf_filename: 'a', template_id: 'invoice' }));
      assert.equal(foreign.statusCode, 404);
      assert.equal(foreign.json().code, 'not_found');
    });

    it('answers 422 when the template cannot render this record, and stores nothing', async () => {
      const countFiles = async () =>
        Number(
          (
            await t.ctx.database.db
              .selectFrom('record_files')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('company_id', '=', 'acme')
              .where('record_id', '=', memo.id)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const countBlobs = async () =>
        Number(
          (
            await t.ctx.database.db
              .selectFrom('blobs')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const blobsBefore = await countBlobs();
      const response = await runStep('acme', memo.id, step({ pdf_filename: 'memo', template_id: 'needs-customer' }));
      assert.equal(response.statusCode, 422, response.body);
      assert.equal(response.json().code, 'validation_failed');
      assert.match(response.json().message, /customer/);
      assert.equal(await countFiles(), 0);
      assert.equal(await countBlobs(), blobsBefore);
    });

    it('needs a bearer token', async () => {
      const response = await t.app.inject({
        method: 'PUT',
        url: `/v1/records/${invoice.id}/steps`,
        payload: step({ pdf_filename: 'a', template_id: 'invoice' }),
      });
      assert.equal(response.statusCode, 401);
    });
  });

  it('documents the step and the download in OpenAPI', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const steps = document.paths['/v1/records/{record}/steps'].put;
    assert.ok(steps.responses['200'] && steps.responses['422'] && steps.responses['404']);
    const download = document.paths['/v1/records/{record}/files/{fileId}'].get;
    assert.ok(download.responses['200'].content['application/pdf']);
  });
});
