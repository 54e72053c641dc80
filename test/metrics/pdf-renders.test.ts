// PDF render figures after pdf_create steps: durations by outcome, queue wait, queue and threads.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineRecordType, INVOICE_TYPE, MEMO_TYPE, putTemplate } from '../pdf/fixtures/records.js';
import { invoiceTemplate, requiredCustomerTemplate } from '../pdf/fixtures/templates.js';
import { scrape } from './exposition.js';

describeEachDatabase('PDF render metrics', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind, { env: { WRS_PDF_WORKERS: '1' } });
  });
  after(() => t.close());

  it('reports no render and no thread before the first render', async () => {
    const exposition = await scrape(t);
    assert.equal(exposition.value('wrs_pdf_render_threads'), 0);
    assert.equal(exposition.value('wrs_pdf_render_queue_length'), 0);
    assert.equal(exposition.value('wrs_pdf_renders_in_progress'), 0);
    assert.deepEqual(exposition.find('wrs_pdf_render_duration_seconds_count'), []);
  });

  it('times each render of a pdf_create step on its thread, and its wait for a place', async () => {
    await defineRecordType(t, 'acme', 'invoice', INVOICE_TYPE);
    // Storing a template renders it once, as a check.
    await putTemplate(t, 'acme', 'invoice', invoiceTemplate());
    const record = await createRecord(t, 'acme', 'invoice', { f_customer: 'Ada' });
    const before = await scrape(t);
    const rendered = (exposition: typeof before, name: string) => exposition.value(name, { outcome: 'rendered' }) ?? 0;
    for (let i = 0; i < 2; i++) {
      const step = await t.as('acme', {
        method: 'PUT',
        url: `/v1/records/${record.id}/steps`,
        payload: { type: 'pdf_create', inputs: { pdf_filename: `Invoice ${i}`, template_id: 'invoice' } },
      });
      assert.equal(step.statusCode, 200, step.body);
    }
    const exposition = await scrape(t);
    assert.equal(rendered(exposition, 'wrs_pdf_renders_total') - rendered(before, 'wrs_pdf_renders_total'), 2);
    const timed = rendered(exposition, 'wrs_pdf_render_duration_seconds_count');
    assert.equal(timed - rendered(before, 'wrs_pdf_render_duration_seconds_count'), 2);
    assert.ok(rendered(exposition, 'wrs_pdf_render_duration_seconds_sum') > rendered(before, 'wrs_pdf_render_duration_seconds_sum'));
    assert.equal(exposition.value('wrs_pdf_render_duration_seconds_bucket', { outcome: 'rendered', le: '+Inf' }), timed);
    assert.equal(exposition.value('wrs_pdf_render_queue_wait_seconds_count'), timed);
    assert.equal(exposition.value('wrs_pdf_render_threads'), 1, 'the thread stays until it has been idle a while');
    assert.equal(exposition.value('wrs_pdf_renders_in_progress'), 0);
    assert.equal(exposition.value('wrs_pdf_render_queue_length'), 0);
    assert.equal(exposition.value('wrs_http_request_duration_seconds_count', { route: '/v1/records/:record/steps', status_code: '200' }), 2);
  });

  it('counts a render the template refuses as rejected, timed like the others', async () => {
    await defineRecordType(t, 'acme', 'memo', MEMO_TYPE);
    await putTemplate(t, 'acme', 'needs-customer', requiredCustomerTemplate());
    const memo = await createRecord(t, 'acme', 'memo', { f_note: 'no customer here' });
    const step = await t.as('acme', {
      method: 'PUT',
      url: `/v1/records/${memo.id}/steps`,
      payload: { type: 'pdf_create', inputs: { pdf_filename: 'memo', template_id: 'needs-customer' } },
    });
    assert.equal(step.statusCode, 422, step.body);
    const exposition = await scrape(t);
    assert.equal(exposition.value('wrs_pdf_renders_total', { outcome: 'rejected' }), 1);
    assert.equal(exposition.value('wrs_pdf_render_duration_seconds_count', { outcome: 'rejected' }), 1);
  });
});
