import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { describeEachDatabase } from '../helpers/databases.js';
import { oneRendererForTheFile } from '../helpers/shared-pdf-renderer.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { invoiceTemplate, minimalTemplate } from '../pdf/fixtures/templates.js';
import { createRecord, defineType, expectStatus, importRecords, LOAN_TYPE, pathOf } from './fixtures.js';

// The file's apps share one PDF renderer, whose thread loads pdfme once for all their renders.
const SHARED_RENDERER = oneRendererForTheFile();

const MEMO_TYPE = { name: 'Memo', fields: [{ uid: 'f_note', field_name: 'Note', type: 'string' }] };

describeEachDatabase("discovery: record types, a record's files, templates", (kind) => {
  let t: TestApp;
  let loan: { id: string };
  let otherLoan: { id: string };
  let memo: { id: string };
  let globexLoan: { id: string };
  let loanToken: string;
  let untypedToken: string;

  const withToken = (token: string, options: InjectOptions) => t.app.inject({ ...options, headers: { authorization: `Bearer ${token}`, ...options.headers } });
  const mint = async (recordId: string) =>
    expectStatus(await t.as('acme', { method: 'POST', url: `/v1/records/${recordId}/tokens`, payload: { expires_in: 3600 } }), 201).token as string;
  const pdfOf = async (company: string, recordId: string, name: string, template = 'minimal') =>
    expectStatus(
      await t.as(company, {
        method: 'PUT',
        url: `/v1/records/${recordId}/steps`,
        payload: { type: 'pdf_create', inputs: { pdf_filename: name, template_id: template } },
      }),
      200,
    ).details;

  before(async () => {
    t = await createTestApp(kind, { env: { WRS_PDF_WORKERS: '1' }, context: SHARED_RENDERER });
    await defineType(t, 'acme', 'memo', MEMO_TYPE);
    await defineType(t, 'acme', 'loan', { ...LOAN_TYPE, name: 'Old loan' });
    await defineType(t, 'acme', 'loan', LOAN_TYPE);
    await defineType(t, 'globex', 'globex-only', MEMO_TYPE);
    await defineType(t, 'globex', 'loan', LOAN_TYPE);
    loan = await createRecord(t, 'acme', 'loan');
    otherLoan = await createRecord(t, 'acme', 'loan');
    memo = await createRecord(t, 'acme', 'memo', { f_note: 'hello' });
    globexLoan = await createRecord(t, 'globex', 'loan');
    await importRecords(t, 'acme', [{ id: 'untyped-1', record_type: 'uccfiling', status: 'filed' }]);
    loanToken = await mint(loan.id);
    untypedToken = await mint('untyped-1');
  });
  after(() => t.close());

  describe('GET /v1/record-types', () => {
    it("lists the caller's company's types by ID, with fields, statuses, views and version", async () => {
      const body = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/record-types' }), 200);
      assert.equal(body.count, 2);
      assert.deepEqual(
        body.results.map((type: { id: string }) => type.id),
        ['loan', 'memo'],
      );
      const [listedLoan, listedMemo] = body.results;
      assert.deepEqual(
        { ...listedLoan, created_at: undefined, updated_at: undefined },
        { id: 'loan', ...LOAN_TYPE, version: 2, created_at: undefined, updated_at: undefined },
      );
      assert.ok(listedLoan.updated_at >= listedLoan.created_at);
      assert.deepEqual(listedMemo.fields, [{ uid: 'f_note', field_name: 'Note', type: 'string', required: false }]);
      assert.deepEqual(listedMemo.statuses, []);
      assert.equal(listedMemo.version, 1);
    });

    it('shows another company nothing of them', async () => {
      const body = expectStatus(await t.as('globex', { method: 'GET', url: '/v1/record-types' }), 200);
      assert.deepEqual(
        body.results.map((type: { id: string }) => type.id),
        ['globex-only', 'loan'],
      );
      const none = expectStatus(await t.as('initech', { method: 'GET', url: '/v1/record-types' }), 200);
      assert.deepEqual(none, { count: 0, results: [] });
    });

    it('refuses record tokens', async () => {
      expectStatus(await withToken(loanToken, { method: 'GET', url: '/v1/record-types' }), 403, 'forbidden');
    });
  });

  describe('GET /v1/record-types/{typeId}', () => {
    it('answers one type as the list shows it; version grows with each replacement', async () => {
      const listed = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/record-types' }), 200).results[0];
      const one = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/record-types/loan' }), 200);
      assert.deepEqual(one, listed);
      await defineType(t, 'acme', 'memo', { ...MEMO_TYPE, name: 'Memo v2' });
      const replaced = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/record-types/memo' }), 200);
      assert.equal(replaced.version, 2);
      assert.equal(replaced.name, 'Memo v2');
    });

    it("answers 404 for an unknown type and for another company's type alike", async () => {
      const unknown = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/record-types/nope' }), 404, 'not_found');
      const ofGlobex = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/record-types/globex-only' }), 404, 'not_found');
      assert.equal(ofGlobex.message.replace('globex-only', 'ID'), unknown.message.replace('nope', 'ID'));
    });

    it("lets a record token read its own record's type and no other", async () => {
      const own = expectStatus(await withToken(loanToken, { method: 'GET', url: '/v1/record-types/loan' }), 200);
      assert.equal(own.id, 'loan');
      assert.deepEqual(own.fields, LOAN_TYPE.fields);
      for (const typeId of ['memo', 'nope', 'globex-only']) {
        expectStatus(await withToken(loanToken, { method: 'GET', url: `/v1/record-types/${typeId}` }), 403, 'forbidden');
      }
    });

    it('refuses a record token whose record follows no type', async () => {
      for (const typeId of ['loan', 'memo']) {
        expectStatus(await withToken(untypedToken, { method: 'GET', url: `/v1/record-types/${typeId}` }), 403, 'forbidden');
      }
    });
  });

  describe('GET /v1/records/{record}/files', () => {
    let first: Record<string, unknown>;
    let second: Record<string, unknown>;
    let third: Record<string, unknown>;

    before(async () => {
      for (const company of ['acme', 'globex']) {
        expectStatus(await t.admin({ method: 'PUT', url: `/admin/v1/companies/${company}/templates/minimal`, payload: minimalTemplate() }), 201);
      }
      first = await pdfOf('acme', loan.id, 'first');
      second = await pdfOf('acme', loan.id, 'second');
      await pdfOf('acme', otherLoan.id, 'of another record');
      third = await pdfOf('acme', loan.id, 'third');
      await pdfOf('globex', globexLoan.id, 'of globex');
    });

    it("lists the record's files newest first, each as the step answered it", async () => {
      const body = expectStatus(await t.as('acme', { method: 'GET', url: `/v1/records/${loan.id}/files` }), 200);
      assert.deepEqual(body, { count: 3, results: [third, second, first] });
      const download = await t.as('acme', { method: 'GET', url: pathOf(String(third.download_url)) });
      assert.equal(download.statusCode, 200);
    });

    it('answers an empty list for a record without files', async () => {
      assert.deepEqual(expectStatus(await t.as('acme', { method: 'GET', url: `/v1/records/${memo.id}/files` }), 200), { count: 0, results: [] });
    });

    it("answers 404 for an unknown record and for another company's record alike", async () => {
      const unknown = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/records/no-such-record/files' }), 404, 'not_found');
      const ofGlobex = expectStatus(await t.as('acme', { method: 'GET', url: `/v1/records/${globexLoan.id}/files` }), 404, 'not_found');
      assert.equal(ofGlobex.message.replace(globexLoan.id, 'ID'), unknown.message.replace('no-such-record', 'ID'));
    });

    it("lets a record token list its own record's files and no other record's", async () => {
      const own = expectStatus(await withToken(loanToken, { method: 'GET', url: `/v1/records/${loan.id}/files` }), 200);
      assert.deepEqual(
        own.results.map((file: { file_id: string }) => file.file_id),
        [third.file_id, second.file_id, first.file_id],
      );
      expectStatus(await withToken(loanToken, { method: 'GET', url: `/v1/records/${otherLoan.id}/files` }), 403, 'forbidden');
    });
  });

  describe('GET /v1/templates', () => {
    it("lists the caller's company's templates by ID, without bodies, as the operator listing does", async () => {
      expectStatus(await t.admin({ method: 'PUT', url: '/admin/v1/companies/soylent/templates/statement', payload: invoiceTemplate() }), 201);
      const operator = expectStatus(await t.admin({ method: 'GET', url: '/admin/v1/companies/soylent/templates' }), 200);
      const user = expectStatus(await t.as('soylent', { method: 'GET', url: '/v1/templates' }), 200);
      assert.deepEqual(user, operator);
      assert.ok(user.results.some((template: { id: string }) => template.id === 'statement'));
      assert.ok(!JSON.stringify(user).includes('schemas'), 'no template bodies');
    });

    it('shows another company only its own', async () => {
      const none = expectStatus(await t.as('initech', { method: 'GET', url: '/v1/templates' }), 200);
      assert.deepEqual(none, { count: 0, results: [] });
      const acme = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/templates' }), 200);
      assert.ok(!JSON.stringify(acme).includes('statement'));
    });

    it('refuses record tokens', async () => {
      expectStatus(await withToken(loanToken, { method: 'GET', url: '/v1/templates' }), 403, 'forbidden');
    });
  });

  describe('GET /admin/v1/companies/{company}/templates', () => {
    it("lists the company's templates by ID, without bodies, as the template PUT answered them", async () => {
      const put = expectStatus(await t.admin({ method: 'PUT', url: '/admin/v1/companies/acme/templates/invoice', payload: invoiceTemplate() }), 201);
      const body = expectStatus(await t.admin({ method: 'GET', url: '/admin/v1/companies/acme/templates' }), 200);
      assert.equal(body.count, 2);
      assert.deepEqual(
        body.results.map((template: { id: string }) => template.id),
        ['invoice', 'minimal'],
      );
      assert.deepEqual(body.results[0], put);
      assert.deepEqual(Object.keys(body.results[1]).sort(), ['company_id', 'created_at', 'id', 'pages', 'size_bytes', 'updated_at']);
    });

    it('shows each company its own templates only', async () => {
      const globex = expectStatus(await t.admin({ method: 'GET', url: '/admin/v1/companies/globex/templates' }), 200);
      assert.deepEqual(
        globex.results.map((template: { id: string }) => template.id),
        ['minimal'],
      );
      assert.deepEqual(expectStatus(await t.admin({ method: 'GET', url: '/admin/v1/companies/initech/templates' }), 200), { count: 0, results: [] });
    });

    it('needs the operator token', async () => {
      expectStatus(await t.as('acme', { method: 'GET', url: '/admin/v1/companies/acme/templates' }), 401);
    });
  });

  it('documents each route with its operationId, tag and an example of its answer', async () => {
    const document = expectStatus(await t.app.inject({ method: 'GET', url: '/v1/openapi.json' }), 200);
    const expected: [string, string, string][] = [
      ['/v1/record-types', 'listRecordTypes', 'record-types'],
      ['/v1/record-types/{typeId}', 'getRecordType', 'record-types'],
      ['/v1/records/{record}/files', 'listRecordFiles', 'files'],
      ['/v1/templates', 'listTemplates', 'steps'],
      ['/admin/v1/companies/{company}/templates', 'adminListTemplates', 'operator'],
    ];
    for (const [path, operationId, tag] of expected) {
      const operation = document.paths[path]?.get;
      assert.ok(operation, `${path} is documented`);
      assert.equal(operation.operationId, operationId);
      assert.deepEqual(operation.tags, [tag]);
      assert.ok(operation.description, `${path} has a description`);
      const answer = operation.responses['200'].content['application/json'];
      assert.ok(answer.schema.examples?.length || answer.example || answer.examples, `${path} has an example`);
    }
  });
});
