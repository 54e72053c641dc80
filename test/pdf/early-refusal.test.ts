import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { siblingModule } from '../../src/lib/module-thread.js';
import { createWorkerPoolRenderer } from '../../src/providers/pdf/worker-pool-renderer.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineRecordType, INVOICE_TYPE, putTemplate } from './fixtures/records.js';
import { minimalTemplate } from './fixtures/templates.js';

// The stand-in worker renders a record whose customer is "hang" until its timeout ends.
const STALLING_WORKER = siblingModule(import.meta.url, 'fixtures/stalling-worker');
const RENDER_TIMEOUT_MS = 1500;

describeEachDatabase('a pdf_create step the render pool would refuse', (kind) => {
  let t: TestApp;
  before(async () => {
    // One place and one place to wait: a company's third render in flight is refused.
    const pdfRenderer = createWorkerPoolRenderer({ workers: 1, rendersPerThread: 1, maxQueue: 1, timeoutMs: RENDER_TIMEOUT_MS, workerFile: STALLING_WORKER });
    t = await createTestApp(kind, { context: { pdfRenderer } });
    await defineRecordType(t, 'acme', 'invoice', INVOICE_TYPE);
    await putTemplate(t, 'acme', 'plain', minimalTemplate());
  });
  after(() => t.close());

  const step = (recordId: string) =>
    t.as('acme', {
      method: 'PUT',
      url: `/v1/records/${recordId}/steps`,
      payload: { type: 'pdf_create', inputs: { pdf_filename: 'out.pdf', template_id: 'plain' } },
    });

  it('is refused with 503 before its record is read: an unknown record gets 503 while the pool is full, 404 once it is not', async () => {
    const hanging = await createRecord(t, 'acme', 'invoice', { f_customer: 'hang' });
    const rendering = step(hanging.id);
    const waiting = step(hanging.id);
    // Both are on the pool once the first holds the place and the second waits for it.
    for (let tries = 0; t.ctx.pdfRenderer.usage().waiting < 1; tries++) {
      assert.ok(tries < 200, 'the two renders never reached the pool');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }

    const refused = await step('no-such-record');
    assert.equal(refused.statusCode, 503, refused.body);
    assert.equal(refused.json().code, 'service_unavailable');
    assert.match(refused.json().message, /too many PDF renders are waiting/);
    assert.ok(Number(refused.headers['retry-after']) >= 1, 'Retry-After');

    assert.equal((await rendering).statusCode, 504, 'the hanging render times out');
    // The waiting one either times out rendering or waited longer than the queue allows.
    assert.ok([503, 504].includes((await waiting).statusCode));
    assert.equal((await step('no-such-record')).statusCode, 404, 'with the pool free, the unknown record is looked up');
  });
});
