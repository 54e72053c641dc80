import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { seedDemoRecords } from '../../src/demo/demo-records.js';
import { DEMO_TEMPLATE_ID, seedDemoTemplates } from '../../src/demo/demo-templates.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { readPdf } from './fixtures/read-pdf.js';

describeEachDatabase('pdf: the demo template', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
  });
  after(() => t.close());

  it('is stored once and renders any demo loan with its fields', async () => {
    assert.equal(await seedDemoTemplates(t.ctx, 'demo'), 1);
    assert.equal(await seedDemoTemplates(t.ctx, 'demo'), 0);
    const templates = await t.admin({ method: 'GET', url: '/admin/v1/companies/demo/templates' });
    assert.deepEqual(
      templates.json().results.map((template: { id: string }) => template.id),
      [DEMO_TEMPLATE_ID],
    );

    await seedDemoRecords(t.ctx, 'demo');
    const step = await t.as('demo', {
      method: 'PUT',
      url: '/v1/records/demo-loan-02/steps',
      payload: { type: 'pdf_create', inputs: { template_id: DEMO_TEMPLATE_ID, pdf_filename: 'loan-summary' } },
    });
    assert.equal(step.statusCode, 200, step.body);
    const { details } = step.json();
    assert.equal(details.pdf_filename, 'loan-summary.pdf');
    const download = await t.as('demo', { method: 'GET', url: new URL(details.download_url).pathname });
    assert.equal(download.statusCode, 200);
    const { pages, text } = await readPdf(download.rawPayload);
    assert.equal(pages, 1);
    assert.match(text[0]!, /Equipment loan demo-loan-02 \(in_review\)/);
    assert.match(text[0]!, /Contoso Ltd/);
    assert.match(text[0]!, /32500/);
  });
});
