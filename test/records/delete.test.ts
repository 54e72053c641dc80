import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createRecordDeletion } from '../../src/domain/records/record-deletion.js';
import { createFilesRepository } from '../../src/storage/repositories/files-repository.js';
import { createRecordTokensRepository } from '../../src/storage/repositories/record-tokens-repository.js';
import { createRecordsRepository } from '../../src/storage/repositories/records-repository.js';
import { createUnitOfWork } from '../../src/storage/unit-of-work.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { oneRendererForTheFile } from '../helpers/shared-pdf-renderer.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { putTemplate } from '../pdf/fixtures/records.js';
import { invoiceTemplate } from '../pdf/fixtures/templates.js';
import { eventually, FAST_WEBHOOKS, startReceiver, type Receiver } from '../webhooks/receiver.js';
import { createRecord, defineType, expectStatus, importRecords } from './fixtures.js';

// The file's apps share one PDF renderer, whose thread loads pdfme once for all their renders.
const SHARED_RENDERER = oneRendererForTheFile();

const INVOICE_TYPE = {
  name: 'Invoice',
  fields: [
    { uid: 'f_customer', field_name: 'customer', type: 'string', required: true },
    { uid: 'f_amount', field_name: 'amount', type: 'number', required: false },
  ],
  statuses: ['new', 'sent'],
  views: [{ id: 'all', name: 'All', statuses: [] }],
};

describeEachDatabase('records: DELETE /v1/records/{record}', (kind) => {
  let t: TestApp;
  let receiver: Receiver;
  let hook: { id: string; secret: string };

  const newInvoice = (customer = 'Ada') => createRecord(t, 'acme', 'invoice', { f_customer: customer });
  const remove = (id: string, headers: Record<string, string> = {}, company = 'acme') => t.as(company, { method: 'DELETE', url: `/v1/records/${id}`, headers });
  const read = (id: string) => t.as('acme', { method: 'GET', url: `/v1/records/${id}` });

  before(async () => {
    receiver = await startReceiver();
    t = await createTestApp(kind, { env: { ...FAST_WEBHOOKS, WRS_PDF_WORKERS: '1' }, context: SHARED_RENDERER });
    t.ctx.webhookDelivery.start();
    await defineType(t, 'acme', 'invoice', INVOICE_TYPE);
    await defineType(t, 'globex', 'invoice', INVOICE_TYPE);
    await putTemplate(t, 'acme', 'invoice', invoiceTemplate());
    hook = expectStatus(
      await t.as('acme', { method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.base}/deleted`, events: ['record.deleted'] } }),
      201,
    );
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  it('answers 204 without a body, and the record is gone (404 on GET, PATCH and a second DELETE)', async () => {
    const record = await newInvoice();
    const response = await remove(record.id);
    assert.equal(response.statusCode, 204, response.body);
    assert.equal(response.body, '');
    expectStatus(await read(record.id), 404, 'not_found');
    expectStatus(await t.as('acme', { method: 'PATCH', url: `/v1/records/${record.id}`, payload: { status: 'sent' } }), 404, 'not_found');
    expectStatus(await remove(record.id), 404, 'not_found');
  });

  it("answers 404 for an unknown record and for another company's record, exactly alike, and leaves the latter alone", async () => {
    const theirs = await createRecord(t, 'globex', 'invoice', { f_customer: 'Globex' });
    const unknown = expectStatus(await remove('no-such-record'), 404, 'not_found');
    const foreign = expectStatus(await remove(theirs.id), 404, 'not_found');
    assert.equal(foreign.message, unknown.message.replace('no-such-record', theirs.id));
    expectStatus(await t.as('globex', { method: 'GET', url: `/v1/records/${theirs.id}` }), 200);
  });

  it('refuses a record token with 403, even for its own record, and keeps the record', async () => {
    const record = await newInvoice();
    const minted = expectStatus(await t.as('acme', { method: 'POST', url: `/v1/records/${record.id}/tokens`, payload: {} }), 201);
    const response = await t.app.inject({ method: 'DELETE', url: `/v1/records/${record.id}`, headers: { authorization: `Bearer ${minted.token}` } });
    expectStatus(response, 403, 'forbidden');
    expectStatus(await read(record.id), 200);
  });

  it('honours If-Match: a stale tag is 412 and changes nothing; the current tag or * deletes', async () => {
    const record = await newInvoice();
    const first = await read(record.id);
    const staleTag = first.headers.etag as string;
    expectStatus(await t.as('acme', { method: 'PATCH', url: `/v1/records/${record.id}`, payload: { status: 'sent' } }), 200);
    const current = await read(record.id);
    const stale = expectStatus(await remove(record.id, { 'if-match': staleTag }), 412, 'precondition_failed');
    assert.match(stale.message, /nothing was deleted/);
    const after412 = await read(record.id);
    assert.equal(after412.statusCode, 200);
    assert.equal(after412.body, current.body);
    expectStatus(await remove(record.id, { 'if-match': `"other", ${current.headers.etag as string}` }), 204);
    expectStatus(await read(record.id), 404);

    const another = await newInvoice();
    expectStatus(await remove(another.id, { 'if-match': '*' }), 204);
    expectStatus(await remove(another.id, { 'if-match': '*' }), 404);
    expectStatus(await remove('nope', { 'if-match': 'garbage' }), 400, 'invalid_header');
  });

  it("revokes the record's tokens at once: they answer 401 from then on", async () => {
    const record = await newInvoice();
    const tokens = await Promise.all(
      [0, 1].map(async () => expectStatus(await t.as('acme', { method: 'POST', url: `/v1/records/${record.id}/tokens`, payload: {} }), 201)),
    );
    const withToken = (token: string) => t.app.inject({ method: 'GET', url: `/v1/records/${record.id}`, headers: { authorization: `Bearer ${token}` } });
    for (const { token } of tokens) expectStatus(await withToken(token), 200);
    expectStatus(await remove(record.id), 204);
    for (const { token } of tokens) {
      const refused = expectStatus(await withToken(token), 401, 'unauthorized');
      assert.match(refused.message, /revoked/);
    }
    const stored = await t.ctx.database.db
      .selectFrom('record_tokens')
      .select(['revoked_at'])
      .where('company_id', '=', 'acme')
      .where('record_id', '=', record.id)
      .execute();
    assert.equal(stored.length, 2);
    assert.ok(stored.every((row) => row.revoked_at !== null));
  });

  it("deletes the record's files and their bytes: the download answers 404 and no blob is left", async () => {
    const record = await newInvoice();
    const keep = await newInvoice('Keep');
    const render = async (id: string) =>
      expectStatus(
        await t.as('acme', {
          method: 'PUT',
          url: `/v1/records/${id}/steps`,
          payload: { type: 'pdf_create', inputs: { pdf_filename: 'inv', template_id: 'invoice' } },
        }),
        200,
      ).details as { file_id: string; download_url: string };
    const file = await render(record.id);
    const kept = await render(keep.id);
    const download = (id: string, fileId: string) => t.as('acme', { method: 'GET', url: `/v1/records/${id}/files/${fileId}` });
    assert.equal((await download(record.id, file.file_id)).statusCode, 200);
    const blobKeys = async () => (await t.ctx.database.db.selectFrom('blobs').select('key').where('company_id', '=', 'acme').execute()).map((row) => row.key);
    assert.ok((await blobKeys()).includes(`files/${file.file_id}`));

    expectStatus(await remove(record.id), 204);
    expectStatus(await download(record.id, file.file_id), 404, 'not_found');
    const keys = await blobKeys();
    assert.ok(!keys.includes(`files/${file.file_id}`), 'the bytes are gone');
    assert.ok(keys.includes(`files/${kept.file_id}`), "another record's bytes stay");
    const fileRows = await t.ctx.database.db
      .selectFrom('record_files')
      .select('id')
      .where('company_id', '=', 'acme')
      .where('record_id', '=', record.id)
      .execute();
    assert.deepEqual(fileRows, []);
    assert.equal((await download(keep.id, kept.file_id)).statusCode, 200);
  });

  it("removes its ID from other records' parent_record, child_records and linked, and leaves the rest of them as it was", async () => {
    const ref = (id: string) => ({ id, record_type: 'uccfiling' });
    await importRecords(t, 'acme', [
      { id: 'gone-1', record_type: 'uccfiling', status: 'filed', parent_record: null, child_records: [], views: [] },
      {
        id: 'holder-1',
        record_type: 'uccfiling',
        status: 'filed',
        parent_record: ref('gone-1'),
        child_records: [ref('gone-1'), ref('stay-1')],
        linked: { crm: { filing: ref('gone-1'), other: { id: 'opp-1' } }, ledger: { entry: ref('gone-1') } },
        views: [],
      },
      {
        id: 'holder-2',
        record_type: 'uccfiling',
        status: 'filed',
        parent_record: ref('stay-1'),
        child_records: [{ id: 'gone-10' }],
        linked: { crm: { note: { text: 'gone-1' } } },
        views: [],
      },
    ]);
    const untouched = await read('holder-2');
    expectStatus(await remove('gone-1'), 204);

    const holder = expectStatus(await read('holder-1'), 200);
    assert.equal(holder.parent_record, null);
    assert.deepEqual(holder.child_records, [ref('stay-1')]);
    assert.deepEqual(holder.linked, { crm: { other: { id: 'opp-1' } } });
    assert.notEqual(holder.updated_at, holder.created_at);
    const second = await read('holder-2');
    assert.equal(second.body, untouched.body, 'a record that only mentions the ID in other ways is unchanged');
  });

  it('sends record.deleted with {id, record_type, uid, deleted_at}', async () => {
    const record = await newInvoice();
    expectStatus(await remove(record.id), 204);
    // Earlier tests' deletions are delivered too, maybe later than this one's.
    const ofThisRecord = () => receiver.on('/deleted').filter((entry) => entry.body.includes(`"id":"${record.id}"`));
    const [delivered] = await eventually(
      async () => ofThisRecord(),
      (found) => found.length === 1,
    );
    const body = new Webhook(hook.secret).verify(delivered!.body, delivered!.headers) as { type: string; data: Record<string, unknown> };
    assert.equal(body.type, 'record.deleted');
    assert.deepEqual(Object.keys(body.data), ['id', 'record_type', 'uid', 'deleted_at']);
    assert.equal(body.data.id, record.id);
    assert.equal(body.data.record_type, 'custom');
    assert.equal(body.data.uid, 'invoice');
    assert.match(body.data.deleted_at as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(Date.parse(body.data.deleted_at as string) >= Date.parse(record.created_at));
  });

  it("changes the list's ETag: a conditional list never serves the deleted record", async () => {
    const record = await newInvoice();
    const list = () => t.as('acme', { method: 'GET', url: '/v1/records?record_type=custom&limit=100' });
    const first = await list();
    assert.ok((first.json().results as Array<{ id: string }>).some((row) => row.id === record.id));
    const etag = first.headers.etag as string;
    expectStatus(await t.as('acme', { method: 'GET', url: '/v1/records?record_type=custom&limit=100', headers: { 'if-none-match': etag } }), 304);
    expectStatus(await remove(record.id), 204);
    const again = await t.as('acme', { method: 'GET', url: '/v1/records?record_type=custom&limit=100', headers: { 'if-none-match': etag } });
    assert.equal(again.statusCode, 200, 'the old tag no longer matches');
    assert.notEqual(again.headers.etag, etag);
    assert.ok(!(again.json().results as Array<{ id: string }>).some((row) => row.id === record.id));
    const inView = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/records?view_id=all&limit=100' }), 200);
    assert.ok(!(inView.results as Array<{ id: string }>).some((row) => row.id === record.id));
  });

  it('deletes nothing when a step of the deletion fails: the transaction rolls back', async () => {
    const record = await newInvoice();
    await importRecords(t, 'acme', [
      { id: `child-of-${record.id}`, record_type: 'uccfiling', status: 'filed', parent_record: { id: record.id }, child_records: [], views: [] },
    ]);
    const minted = expectStatus(await t.as('acme', { method: 'POST', url: `/v1/records/${record.id}/tokens`, payload: {} }), 201);
    const childBefore = (await read(`child-of-${record.id}`)).body;
    // The deletion as the service builds it, but its last write (the record.deleted announcement) fails.
    const broken = createRecordDeletion({
      records: createRecordsRepository(t.ctx.database),
      recordTypes: t.ctx.recordTypes,
      recordTokens: createRecordTokensRepository(t.ctx.database.db),
      files: createFilesRepository(t.ctx.database.db),
      blobs: t.ctx.blobStore,
      unitOfWork: createUnitOfWork(t.ctx.database.db),
      dataVersions: t.ctx.dataVersions,
      clock: t.ctx.clock,
      outbox: {
        async enqueue(scope, companyId, type, data) {
          if (type === 'record.deleted') throw new Error('database gone');
          await t.ctx.webhookOutbox.enqueue(scope, companyId, type, data);
        },
      },
    });
    await assert.rejects(broken.delete('acme', record.id), /database gone/);
    expectStatus(await read(record.id), 200);
    assert.equal((await read(`child-of-${record.id}`)).body, childBefore, 'the reference to it is still there');
    const withToken = await t.app.inject({ method: 'GET', url: `/v1/records/${record.id}`, headers: { authorization: `Bearer ${minted.token}` } });
    expectStatus(withToken, 200);
  });

  it('deletes two records that name each other at once: both go, neither waits forever', async () => {
    await importRecords(t, 'acme', [
      { id: 'pair-a', record_type: 'uccfiling', status: 'filed', parent_record: { id: 'pair-b' }, child_records: [{ id: 'pair-c' }], views: [] },
      { id: 'pair-b', record_type: 'uccfiling', status: 'filed', parent_record: { id: 'pair-a' }, child_records: [{ id: 'pair-c' }], views: [] },
      {
        id: 'pair-c',
        record_type: 'uccfiling',
        status: 'filed',
        parent_record: null,
        child_records: [{ id: 'pair-a' }, { id: 'pair-b' }, { id: 'pair-d' }],
        views: [],
      },
    ]);
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all([remove('pair-a'), remove('pair-b')]);
      if (round === 0)
        assert.deepEqual(
          answers.map((answer) => answer.statusCode),
          [204, 204],
        );
    }
    expectStatus(await read('pair-a'), 404);
    expectStatus(await read('pair-b'), 404);
    assert.deepEqual(expectStatus(await read('pair-c'), 200).child_records, [{ id: 'pair-d' }]);
  });

  it('deletes through the operator API, with the operator token only', async () => {
    const record = await createRecord(t, 'globex', 'invoice', { f_customer: 'Globex' });
    const path = `/admin/v1/companies/globex/records/${record.id}`;
    expectStatus(await t.app.inject({ method: 'DELETE', url: path }), 401);
    expectStatus(await t.app.inject({ method: 'DELETE', url: path, headers: { authorization: `Bearer ${await t.userToken('globex')}` } }), 401);
    expectStatus(await t.admin({ method: 'DELETE', url: `/admin/v1/companies/acme/records/${record.id}` }), 404, 'not_found');
    expectStatus(await t.admin({ method: 'DELETE', url: path, headers: { 'if-match': '"stale"' } }), 412, 'precondition_failed');
    expectStatus(await t.as('globex', { method: 'GET', url: `/v1/records/${record.id}` }), 200);
    const response = await t.admin({ method: 'DELETE', url: path });
    assert.equal(response.statusCode, 204, response.body);
    assert.equal(response.body, '');
    expectStatus(await t.as('globex', { method: 'GET', url: `/v1/records/${record.id}` }), 404);
    expectStatus(await t.admin({ method: 'DELETE', url: path }), 404, 'not_found');
  });
});
