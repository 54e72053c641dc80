import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { siblingModule } from '../../src/lib/module-thread.js';
import { createWorkerPoolRenderer } from '../../src/providers/pdf/worker-pool-renderer.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineRecordType, INVOICE_TYPE, pathOf, putTemplate } from './fixtures/records.js';
import { minimalTemplate, requiredCustomerTemplate } from './fixtures/templates.js';

// The stand-in worker spins forever on any input "hang" and otherwise answers a tiny stand-in
// PDF, so these tests exercise the real pool, its timeout and thread replacement over HTTP.
const STALLING_WORKER = siblingModule(import.meta.url, 'fixtures/stalling-worker');

describeEachDatabase('PDF render timeouts and outages over HTTP', (kind) => {
  let t: TestApp;
  before(async () => {
    const pdfRenderer = createWorkerPoolRenderer({ workers: 1, timeoutMs: 2000, workerFile: STALLING_WORKER });
    // Without WRS_PUBLIC_URL, download URLs are based on the request's own host.
    t = await createTestApp(kind, { context: { pdfRenderer }, env: { WRS_PUBLIC_URL: '' } });
    await defineRecordType(t, 'acme', 'invoice', INVOICE_TYPE);
  });
  after(() => t.close());

  const fileCount = async (recordId: string) =>
    Number(
      (
        await t.ctx.database.db
          .selectFrom('record_files')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('company_id', '=', 'acme')
          .where('record_id', '=', recordId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('answers 504 provider_timeout when the trial render of an upload times out, and stores nothing', async () => {
    const template = { ...minimalTemplate(), schemas: [[{ ...minimalTemplate().schemas[0]![0]!, content: 'hang' }]] };
    const response = await t.admin({ method: 'PUT', url: '/admin/v1/companies/acme/templates/slow', payload: template });
    assert.equal(response.statusCode, 504, response.body);
    assert.equal(response.json().code, 'provider_timeout');
    assert.equal((await t.admin({ method: 'GET', url: '/admin/v1/companies/acme/templates/slow' })).statusCode, 404);
  });

  it("answers 504 provider_timeout when a step's render times out, stores nothing, and recovers", async () => {
    await putTemplate(t, 'acme', 'invoice', requiredCustomerTemplate());
    const stuck = await createRecord(t, 'acme', 'invoice', { f_customer: 'hang' });
    const response = await t.as('acme', {
      method: 'PUT',
      url: `/v1/records/${stuck.id}/steps`,
      payload: { type: 'pdf_create', inputs: { pdf_filename: 'stuck', template_id: 'invoice' } },
    });
    assert.equal(response.statusCode, 504, response.body);
    assert.equal(response.json().code, 'provider_timeout');
    assert.doesNotMatch(response.body, /stack|at \//);
    assert.equal(await fileCount(stuck.id), 0);

    const fine = await createRecord(t, 'acme', 'invoice', { f_customer: 'Fine Co' });
    const next = await t.as('acme', {
      method: 'PUT',
      url: `/v1/records/${fine.id}/steps`,
      headers: { host: 'files.example:8443' },
      payload: { type: 'pdf_create', inputs: { pdf_filename: 'fine', template_id: 'invoice' } },
    });
    assert.equal(next.statusCode, 200, next.body);
    assert.ok(next.json().details.download_url.startsWith(`http://files.example:8443/v1/records/${fine.id}/files/`), next.json().details.download_url);
    const download = await t.as('acme', { method: 'GET', url: pathOf(next.json().details.download_url) });
    assert.equal(download.statusCode, 200);
  });

  it('answers 503 with Retry-After when the renderer is unavailable', async () => {
    const record = await createRecord(t, 'acme', 'invoice', { f_customer: 'Late Co' });
    await t.ctx.pdfRenderer.close();
    const response = await t.as('acme', {
      method: 'PUT',
      url: `/v1/records/${record.id}/steps`,
      payload: { type: 'pdf_create', inputs: { pdf_filename: 'late', template_id: 'invoice' } },
    });
    assert.equal(response.statusCode, 503, response.body);
    assert.equal(response.json().code, 'service_unavailable');
    assert.equal(response.headers['retry-after'], '1');
    assert.equal(await fileCount(record.id), 0);
  });
});
