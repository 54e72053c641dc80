// Every webhook delivery matches the schema the OpenAPI document's `webhooks` section gives its
// event type: the envelope, the typed `data` and the headers, for each type the service sends.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { WEBHOOK_EVENT_TYPES } from '../../src/domain/webhooks/event-types.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { oneRendererForTheFile } from '../helpers/shared-pdf-renderer.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, ingestOk } from '../events/event-fixtures.js';
import { createRecord, defineRecordType, INVOICE_TYPE, putTemplate } from '../pdf/fixtures/records.js';
import { invoiceTemplate } from '../pdf/fixtures/templates.js';
import { expectStatus } from '../records/fixtures.js';
import { eventually, FAST_WEBHOOKS, startReceiver, type Receiver } from './receiver.js';

// The file's apps share one PDF renderer, whose thread loads pdfme once for all their renders.
const SHARED_RENDERER = oneRendererForTheFile();

interface WebhookOperation {
  post: {
    parameters: { name: string; in: string; required: boolean }[];
    requestBody: { content: { 'application/json': { schema: { $ref: string }; example: unknown } } };
  };
}

describeEachDatabase('webhooks: deliveries match the OpenAPI webhooks section', (kind) => {
  let t: TestApp;
  let receiver: Receiver;
  let document: { components: unknown; webhooks: Record<string, WebhookOperation> };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);

  before(async () => {
    receiver = await startReceiver();
    t = await createTestApp(kind, { env: { ...FAST_WEBHOOKS, WRS_PDF_WORKERS: '1' }, context: SHARED_RENDERER });
    t.ctx.webhookDelivery.start();
    await defineRecordType(t, 'acme', 'invoice', INVOICE_TYPE);
    await putTemplate(t, 'acme', 'invoice', invoiceTemplate());
    document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    ajv.addSchema({ $id: 'openapi', components: document.components });
    expectStatus(await t.as('acme', { method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.base}/all`, events: ['*'] } }), 201);
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  /** Validates against the document's schema of the type, answering Ajv's complaints (none: valid). */
  const problemsOf = (type: string, body: unknown): string[] => {
    const operation = document.webhooks[type];
    assert.ok(operation, `the document has a webhook ${type}`);
    const validate = ajv.compile({ $ref: `openapi${operation.post.requestBody.content['application/json'].schema.$ref}` });
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };

  it('documents every event type, each with an example that its own schema accepts', () => {
    assert.deepEqual(Object.keys(document.webhooks).sort(), [...WEBHOOK_EVENT_TYPES].sort());
    for (const type of WEBHOOK_EVENT_TYPES) {
      const post = document.webhooks[type]!.post;
      assert.deepEqual(
        post.parameters.map((p) => `${p.in} ${p.name} ${p.required}`),
        ['header webhook-id true', 'header webhook-timestamp true', 'header webhook-signature true'],
      );
      assert.deepEqual(problemsOf(type, post.requestBody.content['application/json'].example), [], `the example of ${type}`);
      assert.notDeepEqual(problemsOf(type, { type, timestamp: 'soon', data: null }), [], `a wrong ${type} body is refused`);
    }
  });

  it('sends each event type as the document describes it, headers included', async () => {
    const record = await createRecord(t, 'acme', 'invoice', { f_customer: 'Ada' });
    expectStatus(await t.as('acme', { method: 'PATCH', url: `/v1/records/${record.id}`, payload: { status: 'sent' } }), 200);
    expectStatus(await t.as('acme', { method: 'POST', url: `/v1/records/${record.id}/tokens`, payload: { expires_in: 60 } }), 201);
    expectStatus(
      await t.as('acme', {
        method: 'PUT',
        url: `/v1/records/${record.id}/steps`,
        payload: { type: 'pdf_create', inputs: { pdf_filename: 'inv', template_id: 'invoice' } },
      }),
      200,
    );
    expectStatus(await t.as('acme', { method: 'DELETE', url: `/v1/records/${record.id}` }), 204);
    await ingestOk(t, 'acme', [anEvent({ id: 'e-webhook-schema', type: 'flow.started' })]);

    const typeOf = (delivery: { body: string }) => (JSON.parse(delivery.body) as { type: string }).type;
    const arrived = await eventually(
      async () => receiver.on('/all'),
      (deliveries) => WEBHOOK_EVENT_TYPES.every((type) => deliveries.some((delivery) => typeOf(delivery) === type)),
    );
    const seen = new Set<string>();
    for (const delivery of arrived) {
      const body = JSON.parse(delivery.body) as { type: string };
      seen.add(body.type);
      assert.deepEqual(problemsOf(body.type, body), [], `the ${body.type} delivery matches its schema: ${delivery.body}`);
      for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) assert.ok(delivery.headers[header], `${header} is sent`);
    }
    assert.deepEqual([...seen].sort(), [...WEBHOOK_EVENT_TYPES].sort());
  });
});
