// Every /v1 operation through the generated client against the real service on a real port
// (operations.test.ts runs it on each database). client-types.test.ts type-checks this file, so a
// field the answers lack fails `npm test` as surely as a wrong value does.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, it } from 'node:test';
import { isCreateRecordValidationError, type operations, type WrsClient } from '../../clients/typescript/src/index.js';
import { createOperationRecorder, documentedOperationIds } from './operation-recorder.js';
import type { ServiceUnderTest } from './service-under-test.js';

type RecordTypeDefinition = operations['adminPutRecordType']['requestBody']['content']['application/json'];
type Template = operations['adminPutTemplate']['requestBody']['content']['application/json'];
type CheckInput = operations['adminAddChecks']['requestBody']['content']['application/json'][number];
type EventInput = operations['adminIngestEvents']['requestBody']['content']['application/json'][number];

/** Field names are the invoice template's schema names, so pdf_create fills them in. */
const INVOICE_TYPE: RecordTypeDefinition = {
  name: 'Invoice',
  fields: [
    { uid: 'f_customer', field_name: 'customer', type: 'string', required: true },
    { uid: 'f_amount', field_name: 'amount', type: 'number' },
    { uid: 'f_paid', field_name: 'paid', type: 'boolean' },
  ],
  statuses: ['new', 'sent', 'paid'],
  views: [
    { id: 'open', name: 'Open', statuses: ['new', 'sent'] },
    { id: 'settled', name: 'Settled', statuses: ['paid'] },
  ],
};

const text = (name: string, y: number, content: string) => ({ name, type: 'text', position: { x: 20, y }, width: 170, height: 10, content });
/** Two A4 pages: the record's fields by name, then its creation time. */
const INVOICE_TEMPLATE: Template = {
  basePdf: { width: 210, height: 297, padding: [10, 10, 10, 10] },
  schemas: [[text('customer', 20, 'ACME'), text('amount', 35, '1.00'), text('paid', 50, 'false')], [text('created_at', 20, '2026-01-01T00:00:00.000Z')]],
};

const ADDRESS = { name: 'Ada Lovelace', address_line1: '1 Main St', address_city: 'Springfield', address_state: 'IL', address_zip: '62701' };
const check = (id: string, amount: number, dateCreated: string): CheckInput => ({
  id,
  amount,
  to: ADDRESS,
  from: { ...ADDRESS, name: 'Acme Corp' },
  bank_account: 'bank_8cad8df5354d33f',
  date_created: dateCreated,
  send_date: dateCreated,
  mail_type: 'usps_first_class',
});

const EVENTS: EventInput[] = [
  { type: 'user_flow_session_started', flow_key: 'loan-intake', flow_session: 1, created_at: '2026-05-01T10:00:00.000Z' },
  {
    type: 'user_flow_session_step_completed',
    flow_key: 'loan-intake',
    flow_session: 1,
    step_key: 'decision-1',
    selected_decision: 'Approve',
    created_at: '2026-05-01T10:05:00.000Z',
  },
  { type: 'user_flow_session_started', flow_key: 'vendor-onboarding', flow_session: 2, created_at: '2026-05-02T09:00:00.000Z' },
];

/** The body of a successful answer, after checking its status. */
function answered<Data>(result: { data?: Data; error?: unknown; response: Response }, status: number): Data {
  assert.equal(result.response.status, status, `${result.response.url}: ${JSON.stringify(result.error)}`);
  assert.ok(result.data !== undefined, `${result.response.url} answered ${status} without a body`);
  return result.data;
}

/** The typed error body of a failed answer, after checking its status and code. */
function refused<Failure extends { code: string; message: string }>(result: { error?: Failure; response: Response }, status: number, code: string): Failure {
  assert.equal(result.response.status, status, `${result.response.url}: ${JSON.stringify(result.error)}`);
  assert.ok(result.error, `${result.response.url} answered ${status} without an error body`);
  assert.equal(result.error.code, code);
  assert.equal(typeof result.error.message, 'string');
  return result.error;
}

/** Declares the suite's steps against a service that `start` brings up (and the last step closes). */
export function clientOperationsSuite(start: () => Promise<ServiceUnderTest>): void {
  const recorder = createOperationRecorder();
  let service: ServiceUnderTest;
  let acme: WrsClient;
  let globex: WrsClient;
  let invoiceId: string;

  before(async () => {
    service = await start();
    const operator = service.operator;
    for (const company of ['acme', 'globex']) {
      answered(
        await operator.PUT('/admin/v1/companies/{company}/record-types/{typeId}', { params: { path: { company, typeId: 'invoice' } }, body: INVOICE_TYPE }),
        201,
      );
    }
    answered(
      await operator.PUT('/admin/v1/companies/{company}/templates/{templateId}', {
        params: { path: { company: 'acme', templateId: 'invoice' } },
        body: INVOICE_TEMPLATE,
      }),
      201,
    );
    const ingested = answered(await operator.POST('/admin/v1/companies/{company}/events', { params: { path: { company: 'acme' } }, body: EVENTS }), 200);
    assert.equal(ingested.ingested, EVENTS.length);
    const checks = [
      check('chk_a1', 120.5, '2026-04-01T00:00:00.000Z'),
      check('chk_a2', 99, '2026-04-02T00:00:00.000Z'),
      check('chk_a3', 7.25, '2026-04-03T00:00:00.000Z'),
    ];
    answered(await operator.POST('/admin/v1/companies/{company}/checks', { params: { path: { company: 'acme' } }, body: checks }), 201);

    acme = recorder.watch(await service.clientFor('acme'));
    globex = recorder.watch(await service.clientFor('globex'));
    const created = answered(
      await acme.POST('/v1/records/{typeId}', {
        params: { path: { typeId: 'invoice' } },
        body: { f_customer: 'Zoë Müller GmbH', f_amount: 1234.5, f_paid: false },
      }),
      201,
    );
    invoiceId = created.id;
  });
  after(() => service.close());

  it('reads the record types: listRecordTypes, getRecordType', async () => {
    const list = answered(await acme.GET('/v1/record-types'), 200);
    assert.equal(list.count, 1);
    assert.equal(list.results[0]?.id, 'invoice');
    const type = answered(await acme.GET('/v1/record-types/{typeId}', { params: { path: { typeId: 'invoice' } } }), 200);
    assert.deepEqual(
      type.fields.map((field) => [field.uid, field.field_name, field.type, field.required]),
      [
        ['f_customer', 'customer', 'string', true],
        ['f_amount', 'amount', 'number', false],
        ['f_paid', 'paid', 'boolean', false],
      ],
    );
    assert.deepEqual(
      type.views.map((view) => view.id),
      ['open', 'settled'],
    );
    assert.equal(type.version, 1);
    refused(await acme.GET('/v1/record-types/{typeId}', { params: { path: { typeId: 'no-such-type' } } }), 404, 'not_found');
  });

  it('creates, reads, updates, lists and deletes records: createRecord, getRecord, updateRecord, listRecords, deleteRecord', async () => {
    const record = answered(await acme.GET('/v1/records/{record}', { params: { path: { record: invoiceId } } }), 200);
    assert.equal(record.id, invoiceId);
    assert.equal(record.status, 'new');
    assert.deepEqual(record.fields, { customer: 'Zoë Müller GmbH', amount: 1234.5, paid: false });
    assert.deepEqual(record.views, ['open']);
    assert.deepEqual(record.child_records, []);

    const second = answered(await acme.POST('/v1/records/{typeId}', { params: { path: { typeId: 'invoice' } }, body: { f_customer: 'Second Ltd' } }), 201);
    const paid = answered(await acme.PATCH('/v1/records/{record}', { params: { path: { record: second.id } }, body: { status: 'paid', f_paid: true } }), 200);
    assert.equal(paid.status, 'paid');
    assert.deepEqual(paid.views, ['settled']);
    assert.equal(paid.fields?.paid, true);

    const open = answered(await acme.GET('/v1/records', { params: { query: { view_id: 'open' } } }), 200);
    assert.deepEqual(
      open.results.map((listed) => listed.id),
      [invoiceId],
    );
    const firstPage = answered(await acme.GET('/v1/records', { params: { query: { record_type: 'custom', limit: 1 } } }), 200);
    assert.equal(firstPage.count, 1);
    assert.equal(firstPage.results[0]?.id, invoiceId);
    assert.ok(firstPage.next?.startsWith(`${service.baseUrl}/v1/records?`), `next links to the service the client called: ${firstPage.next}`);
    assert.equal(firstPage.prev, null);

    assert.equal(answered(await globex.GET('/v1/records'), 200).count, 0, 'another company sees none of them');

    const doomed = answered(await acme.POST('/v1/records/{typeId}', { params: { path: { typeId: 'invoice' } }, body: { f_customer: 'Doomed Ltd' } }), 201);
    const deleted = await acme.DELETE('/v1/records/{record}', { params: { path: { record: doomed.id } } });
    assert.equal(deleted.response.status, 204);
    refused(await acme.GET('/v1/records/{record}', { params: { path: { record: doomed.id } } }), 404, 'not_found');
  });

  it('answers errors as typed {message, code} bodies: a 400 with its details, a 404, a 401', async () => {
    const invalid = refused(
      await acme.POST('/v1/records/{typeId}', { params: { path: { typeId: 'invoice' } }, body: { f_amount: 'a lot', f_unknown: 1 } }),
      400,
      'validation_failed',
    );
    assert.ok(isCreateRecordValidationError(invalid), 'a validation error lists the fields');
    assert.deepEqual(invalid.invalid_fields, ['f_unknown']);
    assert.deepEqual(invalid.required_fields, [{ uid: 'f_customer', field_name: 'customer' }]);
    assert.deepEqual(invalid.type_errors, [{ uid: 'f_amount', field_name: 'amount', expected: 'number' }]);
    assert.equal(invalid.error_count, 3);

    refused(await acme.POST('/v1/records/{typeId}', { params: { path: { typeId: 'no-such-type' } }, body: { f_customer: 'x' } }), 404, 'not_found');
    const missing = refused(await acme.GET('/v1/records/{record}', { params: { path: { record: 'no-such-record' } } }), 404, 'not_found');
    assert.match(missing.message, /no-such-record/);
    refused(await globex.GET('/v1/records/{record}', { params: { path: { record: invoiceId } } }), 404, 'not_found');
    const badLimit = refused(await acme.GET('/v1/events', { params: { query: { limit: 10_001 } } }), 400, 'invalid_query');
    assert.deepEqual(badLimit.invalid_params, ['limit']);
    refused(await recorder.watch(service.clientWith('not-a-jwt')).GET('/v1/record-types'), 401, 'unauthorized');
  });

  it('mints, lists, uses and revokes record tokens: createRecordToken, listRecordTokens, revokeRecordToken, the deprecated /actions', async () => {
    const minted = answered(await acme.POST('/v1/records/{record}/tokens', { params: { path: { record: invoiceId } }, body: { expires_in: 3600 } }), 201);
    assert.equal(minted.record_id, invoiceId);
    assert.equal(minted.company_id, 'acme');
    assert.equal(minted.type, 'record');
    assert.equal(Date.parse(minted.expires_at) - Date.parse(minted.created_at), 3_600_000);

    // The mint body is optional (the document says so): no body, the default lifetime.
    const legacy = answered(await acme.POST('/v1/records/{record}/actions', { params: { path: { record: invoiceId } } }), 201);
    assert.equal(legacy.record_id, invoiceId);
    assert.equal(Date.parse(legacy.expires_at) - Date.parse(legacy.created_at), 86_400_000, 'the default lifetime is a day');

    const listed = answered(await acme.GET('/v1/records/{record}/tokens', { params: { path: { record: invoiceId } } }), 200);
    assert.deepEqual(listed.results.map((token) => token.key).sort(), [minted.key, legacy.key].sort());
    assert.ok(
      listed.results.every((token) => !('token' in token)),
      'a listed token never shows its JWT',
    );

    const oneRecord = recorder.watch(service.clientWith(minted.token));
    assert.equal(answered(await oneRecord.GET('/v1/records/{record}', { params: { path: { record: invoiceId } } }), 200).id, invoiceId);
    const sent = answered(await oneRecord.PATCH('/v1/records/{record}', { params: { path: { record: invoiceId } }, body: { status: 'sent' } }), 200);
    assert.equal(sent.status, 'sent');
    refused(await oneRecord.GET('/v1/records'), 403, 'forbidden');

    const revoked = await acme.DELETE('/v1/records/{record}/tokens/{key}', { params: { path: { record: invoiceId, key: minted.key } } });
    assert.equal(revoked.response.status, 204);
    refused(await oneRecord.GET('/v1/records/{record}', { params: { path: { record: invoiceId } } }), 401, 'unauthorized');
    assert.equal(
      (await acme.DELETE('/v1/records/{record}/tokens/{key}', { params: { path: { record: invoiceId, key: minted.key } } })).response.status,
      204,
      'again 204 when already revoked',
    );
    refused(await acme.DELETE('/v1/records/{record}/tokens/{key}', { params: { path: { record: invoiceId, key: 'no-such-key' } } }), 404, 'not_found');
  });

  it('lists the templates a pdf_create step may name: listTemplates', async () => {
    const templates = answered(await acme.GET('/v1/templates'), 200);
    assert.deepEqual(
      templates.results.map((template) => template.id),
      ['invoice'],
    );
    assert.equal(answered(await globex.GET('/v1/templates'), 200).count, 0);
  });

  it('runs pdf_create and downloads the PDF as bytes: runRecordStep, listRecordFiles, downloadRecordFile', async () => {
    const step = answered(
      await acme.PUT('/v1/records/{record}/steps', {
        params: { path: { record: invoiceId } },
        body: { type: 'pdf_create', inputs: { pdf_filename: 'Invoice 42', template_id: 'invoice' } },
      }),
      200,
    );
    assert.equal(step.message, 'PDF created');
    assert.equal(step.details.pdf_filename, 'Invoice 42.pdf');
    assert.equal(step.details.pages, 2);
    assert.equal(step.details.download_url, `${service.baseUrl}/v1/records/${invoiceId}/files/${step.details.file_id}`);

    const files = answered(await acme.GET('/v1/records/{record}/files', { params: { path: { record: invoiceId } } }), 200);
    assert.deepEqual(files.results, [step.details]);

    const download = await acme.GET('/v1/records/{record}/files/{fileId}', {
      params: { path: { record: invoiceId, fileId: step.details.file_id } },
      parseAs: 'arrayBuffer',
    });
    const pdf = Buffer.from(answered(download, 200));
    assert.equal(download.response.headers.get('content-type'), 'application/pdf');
    assert.equal(pdf.byteLength, step.details.size_bytes);
    assert.equal(createHash('sha256').update(pdf).digest('hex'), step.details.sha256);
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');

    refused(
      // @ts-expect-error the document lists the step types (StepType): the client refuses another, the service answers 400 to one sent anyway
      await acme.PUT('/v1/records/{record}/steps', { params: { path: { record: invoiceId } }, body: { type: 'mail_merge', inputs: {} } }),
      400,
      'invalid_body',
    );
  });

  it('lists events with typed filters and order: listEvents', async () => {
    const all = answered(await acme.GET('/v1/events'), 200);
    assert.equal(all.count, EVENTS.length);
    assert.ok(all.results.every((event) => event.company_id === 'acme'));
    const started = answered(await acme.GET('/v1/events', { params: { query: { type: 'user_flow_session_started', order_by: '-created_at' } } }), 200);
    assert.deepEqual(
      started.results.map((event) => [event.flow_key, event.flow_session, event.created_at]),
      [
        ['vendor-onboarding', 2, '2026-05-02T09:00:00.000Z'],
        ['loan-intake', 1, '2026-05-01T10:00:00.000Z'],
      ],
    );
    const decided = answered(await acme.GET('/v1/events', { params: { query: { flow_key__contains: 'intake', step_key: 'decision-1' } } }), 200);
    assert.equal(decided.results[0]?.selected_decision, 'Approve');
    assert.equal(answered(await globex.GET('/v1/events'), 200).count, 0);
  });

  it('lists the event types with their counts: listEventTypes', async () => {
    const types = answered(await acme.GET('/v1/event-types'), 200);
    const expected = new Map<string, number>();
    for (const event of EVENTS) expected.set(event.type, (expected.get(event.type) ?? 0) + 1);
    assert.deepEqual(
      types.results.map((row) => [row.type, row.count]),
      [...expected].sort(([a], [b]) => (a < b ? -1 : 1)),
    );
    assert.equal(types.count, expected.size);
    assert.deepEqual(answered(await globex.GET('/v1/event-types'), 200), { count: 0, results: [] });
  });

  it('follows the change feed and opens the live stream: listEventChanges, streamEvents', async () => {
    const first = answered(await acme.GET('/v1/events/changes', { params: { query: { limit: 2 } } }), 200);
    assert.equal(first.count, 2);
    const rest = answered(await acme.GET('/v1/events/changes', { params: { query: { after: first.next_cursor } } }), 200);
    assert.equal(first.count + rest.count, EVENTS.length);
    const stopped = new AbortController();
    const stream = await acme.GET('/v1/events/stream', { params: { query: { after: first.next_cursor } }, parseAs: 'stream', signal: stopped.signal });
    assert.equal(stream.response.status, 200);
    assert.match(stream.response.headers.get('content-type') ?? '', /^text\/event-stream/);
    const reader = stream.response.body!.getReader();
    let text = '';
    while (!text.includes('event: event')) text += new TextDecoder().decode((await reader.read()).value);
    stopped.abort();
    assert.match(text, /^id: [\w-]+\nevent: event\ndata: \{/m);
  });

  it('lists mailed checks with paging links: listChecks', async () => {
    const newest = answered(await acme.GET('/v1/checks', { params: { query: { limit: 2, sort_by: '-date_created' } } }), 200);
    assert.equal(newest.count, 2);
    assert.deepEqual(
      newest.results.map((listed) => [listed.id, listed.amount]),
      [
        ['chk_a3', 7.25],
        ['chk_a2', 99],
      ],
    );
    assert.equal(newest.results[0]?.to?.name, 'Ada Lovelace');
    assert.ok(newest.next_url?.startsWith(`${service.baseUrl}/v1/checks?`), `next_url: ${newest.next_url}`);
    assert.equal(answered(await globex.GET('/v1/checks'), 200).count, 0);
  });

  it('manages webhooks and their deliveries: createWebhook, listWebhooks, getWebhook, updateWebhook, rotateWebhookSecret, listWebhookDeliveries, redeliverWebhookDelivery, deleteWebhook', async () => {
    const created = answered(await acme.POST('/v1/webhooks', { body: { url: 'https://93.184.215.14/client-hook', events: ['record.created'] } }), 201);
    assert.match(created.secret, /^whsec_/);
    assert.deepEqual(
      answered(await acme.GET('/v1/webhooks'), 200).results.map((hook) => hook.id),
      [created.id],
    );
    assert.equal(answered(await acme.GET('/v1/webhooks/{id}', { params: { path: { id: created.id } } }), 200).url, 'https://93.184.215.14/client-hook');
    const patched = answered(await acme.PATCH('/v1/webhooks/{id}', { params: { path: { id: created.id } }, body: { description: 'from the client' } }), 200);
    assert.equal(patched.description, 'from the client');
    const rotated = answered(await acme.POST('/v1/webhooks/{id}/secret', { params: { path: { id: created.id } }, body: { overlap_seconds: 3600 } }), 200);
    assert.match(rotated.secret, /^whsec_/);
    assert.notEqual(rotated.secret, created.secret);
    assert.ok(rotated.previous_secret_expires_at, 'the previous secret stops in an hour');
    answered(await acme.POST('/v1/records/{typeId}', { params: { path: { typeId: 'invoice' } }, body: { f_customer: 'Hooked Ltd' } }), 201);
    const deliveries = answered(await acme.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id: created.id } } }), 200);
    assert.equal(deliveries.count, 1);
    assert.equal(deliveries.results[0]!.event_type, 'record.created');
    const again = answered(
      await acme.POST('/v1/webhooks/{id}/deliveries/{delivery}/redeliver', { params: { path: { id: created.id, delivery: deliveries.results[0]!.id } } }),
      202,
    );
    assert.equal(again.status, 'pending');
    refused(await globex.GET('/v1/webhooks/{id}', { params: { path: { id: created.id } } }), 404, 'not_found');
    assert.equal((await acme.DELETE('/v1/webhooks/{id}', { params: { path: { id: created.id } } })).response.status, 204);
  });

  it('has called every /v1 operation of the served document through the client', async () => {
    const documented = await documentedOperationIds(service.baseUrl, '/v1/');
    const called = new Set([...recorder.called].map((operation) => documented.get(operation) ?? `undocumented: ${operation}`));
    const uncalled = [...documented.values()].filter((operationId) => !called.has(operationId));
    assert.deepEqual(uncalled, [], `no client call in this suite covers: ${uncalled.join(', ')}`);
    assert.deepEqual(called, new Set(documented.values()));
  });
}
