import assert from 'node:assert/strict';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { after, before, it } from 'node:test';
import { IMPORT_BATCH_RECORDS } from '../../src/domain/records/record-import.js';
import { ManualClock } from '../../src/lib/clock.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app.js';
import { defineType, expectStatus, importRecords, LOAN_TYPE } from './fixtures.js';

/** A workboard as another system exports it: records of several kinds with relations. */
const WORKBOARD = [
  {
    id: 'ucc-1',
    record_type: 'uccfiling',
    uid: { definition: 'ucc', revision: 3 },
    status: 'filed',
    parent_record: null,
    child_records: [{ id: 'asset-1', record_type: 'infoleaseasset' }],
    instance: { filing_number: '2024-000123', jurisdiction: 'DE', lapse_date: '2029-05-01', debtor: { name: 'Acme Corp' } },
    fields: { 'Filing Type': 'UCC1', Amount: 125000.5, Flags: [1, 'two', null] },
    linked: { salesforce: { opportunity: { id: '006xx', stage: 'Closed Won' } }, netsuite: {} },
    views: ['ucc-active', 'expiring'],
    created_at: '2024-05-01T12:00:00.000Z',
    updated_at: '2024-06-01T08:30:00.250Z',
  },
  {
    id: 'asset-1',
    record_type: 'infoleaseasset',
    status: 'on_lease',
    parent_record: { id: 'ucc-1', record_type: 'uccfiling' },
    child_records: [],
    instance: { asset_number: 'A-77', cost: 9999.99, tags: [] },
    linked: {},
    views: [],
    created_at: '2024-05-02T00:00:00.000Z',
    updated_at: '2024-05-02T00:00:00.000Z',
  },
  {
    id: 'label-1',
    record_type: 'purchasedlabel',
    status: 'purchased',
    child_records: [],
    instance: null,
    views: ['labels'],
    created_at: '2024-05-03T00:00:00.000Z',
    updated_at: '2024-05-04T00:00:00.000Z',
  },
  {
    id: 'loan-1',
    record_type: 'custom',
    uid: 'loan',
    status: 'done',
    parent_record: null,
    child_records: [],
    fields: { Amount: 10, Borrower: 'Ada', 'Due date': '2024-12-31', Signed: true },
    linked: { docusign: { envelope: { id: 'env-1' } } },
    views: ['closed', 'everything'],
    created_at: '2024-05-04T00:00:00.000Z',
    updated_at: '2024-05-05T00:00:00.000Z',
  },
];

describeEachDatabase('records: import (operator API)', (kind) => {
  let t: TestApp;
  const clock = new ManualClock('2026-05-01T00:00:00.000Z');
  before(async () => {
    t = await createTestApp(kind, { clock });
    await defineType(t, 'acme', 'loan', LOAN_TYPE);
  });
  after(() => t.close());

  const post = (company: string, payload: unknown, contentType = 'application/json') =>
    t.admin({
      method: 'POST',
      url: `/admin/v1/companies/${company}/records`,
      headers: { 'content-type': contentType },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  const get = (id: string, company = 'acme') => t.as(company, { method: 'GET', url: `/v1/records/${id}` });

  it('reads a migrated workboard back exactly as it was written', async () => {
    expectStatus(await post('acme', WORKBOARD), 201);
    for (const record of WORKBOARD) {
      assert.deepEqual(expectStatus(await get(record.id), 200), record, record.id);
    }
    const listed = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/records?created_before=2025-01-01' }), 200);
    assert.deepEqual(listed.results, WORKBOARD);
    const expiring = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/records?view_id=expiring' }), 200);
    assert.deepEqual(
      expiring.results.map((r: { id: string }) => r.id),
      ['ucc-1'],
    );
    const closed = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/records?view_id=closed&created_before=2025-01-01' }), 200);
    assert.deepEqual(
      closed.results.map((r: { id: string }) => r.id),
      ['loan-1'],
    );
  });

  it('imports NDJSON, skipping blank lines', async () => {
    const lines = [
      JSON.stringify({ id: 'nd-1', record_type: 'uccfiling', status: 'filed', created_at: '2024-07-01T00:00:00Z' }),
      '',
      JSON.stringify({ id: 'nd-2', record_type: 'uccfiling', status: 'lapsed', created_at: '2024-07-01T00:00:00+02:00' }),
      '',
    ].join('\r\n');
    const response = await post('acme', lines, 'application/x-ndjson');
    assert.deepEqual(expectStatus(response, 201), { imported: 2 });
    const first = expectStatus(await get('nd-1'), 200);
    assert.equal(first.created_at, '2024-07-01T00:00:00.000Z', 'timestamps are normalised to UTC with milliseconds');
    assert.equal(first.updated_at, first.created_at, 'updated_at defaults to created_at');
    assert.deepEqual(first.child_records, []);
    assert.deepEqual(first.views, []);
    assert.equal(expectStatus(await get('nd-2'), 200).created_at, '2024-06-30T22:00:00.000Z');
  });

  it('fills a missing id, timestamps and the status of a defined custom type', async () => {
    clock.set('2026-05-02T03:04:05.678Z');
    expectStatus(await post('acme', [{ record_type: 'custom', uid: 'loan', fields: { Amount: 1, Borrower: 'Z' } }]), 201);
    const page = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/records?created_after=2026-05-02' }), 200);
    assert.equal(page.count, 1);
    const [record] = page.results;
    assert.match(record.id, /^[0-9a-f-]{36}$/);
    assert.equal(record.status, 'new');
    assert.deepEqual(record.views, ['open', 'everything']);
    assert.equal(record.created_at, '2026-05-02T03:04:05.678Z');
    assert.equal(record.updated_at, '2026-05-02T03:04:05.678Z');
    // A record imported for a defined type is updated like any other record of it.
    const updated = expectStatus(await t.as('acme', { method: 'PATCH', url: `/v1/records/${record.id}`, payload: { status: 'done', f_signed: true } }), 200);
    assert.deepEqual(updated.fields, { Amount: 1, Signed: true, Borrower: 'Z' });
    assert.deepEqual(updated.views, ['closed', 'everything']);
  });

  it('imports nothing when any record has a problem, and lists every problem', async () => {
    const before = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/records' }), 200).count;
    const response = await post('acme', [
      { id: 'ok-1', record_type: 'uccfiling', status: 'filed' },
      { id: 'bad 1', record_type: '', status: 'filed' },
      { id: 'ok-2', record_type: 'uccfiling', status: 3, extra: true },
      { id: 'ok-3', record_type: 'custom', uid: 'loan', status: 'archived', fields: { Nope: 1, Amount: 'x' } },
      { id: 'ok-4', record_type: 'custom', uid: 'loan', status: 'done', views: ['open'] },
      { id: 'ok-1', record_type: 'uccfiling', status: 'filed' },
      'not a record',
      { id: 'ok-5', record_type: 'uccfiling', status: 'filed', created_at: 'yesterday', linked: { a: 1 }, child_records: {}, parent_record: 5, views: [1] },
    ]);
    const body = expectStatus(response, 400, 'invalid_body');
    const problem = (index: number, field: string | null, message: string) => ({ index, field, message });
    assert.deepEqual(body.errors, [
      problem(1, 'id', 'must be a string of 1 to 200 characters without spaces, "/", "?" or "#"'),
      problem(1, 'record_type', 'must be a non-empty string (uccfiling, custom, ...)'),
      problem(2, 'extra', 'is not a property of the Record shape'),
      problem(2, 'status', 'must be a non-empty string'),
      problem(3, 'status', "'archived' is not a status of record type 'loan' (new, in_review, done)"),
      problem(3, 'fields', "'Nope' is not a field name of type 'loan'"),
      problem(3, 'fields', "'Amount' must be a number"),
      problem(4, 'views', "must be [closed, everything], the views of record type 'loan' for status 'done'"),
      problem(5, 'id', "'ok-1' is also the id of records[0]"),
      problem(6, null, 'must be a JSON object in the Record shape'),
      problem(7, 'parent_record', 'must be an object or null'),
      problem(7, 'child_records', 'must be an array'),
      problem(7, 'linked', 'must be an object keyed by source name, each value an object keyed by object name'),
      problem(7, 'views', 'must be an array of view IDs'),
      problem(7, 'created_at', 'must be an ISO 8601 timestamp'),
    ]);
    assert.equal(body.error_count, 15);
    assert.match(body.message, /^nothing was imported: 15 problem\(s\): \[1\]\.id must be a string/);
    assert.ok(body.message.startsWith('nothing was imported'));
    expectStatus(await get('ok-1'), 404);
    assert.equal(expectStatus(await t.as('acme', { method: 'GET', url: '/v1/records' }), 200).count, before);
  });

  it('names bad NDJSON lines by number, together with the other problems', async () => {
    const response = await post(
      'acme',
      ['{"id":"n-1","record_type":"uccfiling","status":"filed"}', '{broken', '', '{"id":"n-2","record_type":"x"}'].join('\n'),
      'application/x-ndjson',
    );
    const body = expectStatus(response, 400, 'invalid_body');
    assert.equal(body.error_count, 2);
    assert.deepEqual([body.errors[0].index, body.errors[0].field], [1, null]);
    assert.match(body.errors[0].message, /^line 2: malformed JSON/);
    assert.deepEqual(body.errors[1], { index: 3, field: 'status', message: 'line 4: must be a non-empty string' });
    expectStatus(await get('n-1'), 404);
  });

  it('refuses ids that already exist, importing nothing', async () => {
    const response = await post('acme', [
      { id: 'fresh-1', record_type: 'uccfiling', status: 'filed' },
      { id: 'ucc-1', record_type: 'uccfiling', status: 'filed' },
    ]);
    const body = expectStatus(response, 400, 'invalid_body');
    assert.deepEqual(body.errors, [{ index: 1, field: 'id', message: "a record with id 'ucc-1' already exists" }]);
    expectStatus(await get('fresh-1'), 404);
    // The same id in another company is another record.
    expectStatus(await post('globex', [{ id: 'ucc-1', record_type: 'uccfiling', status: 'theirs' }]), 201);
    assert.equal(expectStatus(await get('ucc-1', 'globex'), 200).status, 'theirs');
    assert.equal(expectStatus(await get('ucc-1'), 200).status, 'filed');
  });

  it('lists at most 100 problems and counts the rest', async () => {
    const records = Array.from({ length: 30 }, (_, i) => ({ id: `many-${i}`, record_type: 'uccfiling', status: 'filed', a: 1, b: 2, c: 3, d: 4 }));
    const body = expectStatus(await post('acme', records), 400, 'invalid_body');
    assert.equal(body.error_count, 120);
    assert.equal(body.errors.length, 100);
    assert.deepEqual(body.errors[99], { index: 24, field: 'd', message: 'is not a property of the Record shape' });
    assert.match(body.message, /\(and 20 more\)$/);
    expectStatus(await get('many-0'), 404);
  });

  it('refuses records that are not UTF-8, naming the NDJSON line or array index, and the byte', async () => {
    const good = '{"id":"utf-1","record_type":"uccfiling","status":"filed"}\n';
    const before = '{"id":"utf-2","record_type":"uccfiling","status":"fil';
    const bad = Buffer.concat([Buffer.from(before), Buffer.from([0xe9]), Buffer.from('"}')]); // a Latin-1 é
    const ndjson = await t.admin({
      method: 'POST',
      url: '/admin/v1/companies/acme/records',
      headers: { 'content-type': 'application/x-ndjson' },
      payload: Buffer.concat([Buffer.from(good), bad]),
    });
    const body = expectStatus(ndjson, 400, 'invalid_body');
    assert.deepEqual(body.errors, [{ index: 1, field: null, message: `line 2: not valid UTF-8 (at byte ${good.length + before.length} of the body)` }]);
    const array = await t.admin({
      method: 'POST',
      url: '/admin/v1/companies/acme/records',
      headers: { 'content-type': 'application/json' },
      payload: Buffer.concat([Buffer.from('['), bad, Buffer.from(']')]),
    });
    // Each array item is decoded on its own too: the item is named, not the body.
    assert.deepEqual(expectStatus(array, 400, 'invalid_body').errors, [
      { index: 0, field: null, message: `not valid UTF-8 (at byte ${1 + before.length} of the body)` },
    ]);
    expectStatus(await get('utf-1'), 404);
    expectStatus(await get('utf-2'), 404);
  });

  it('takes only a JSON array or NDJSON', async () => {
    expectStatus(await post('acme', { record_type: 'uccfiling', status: 'filed' }), 400, 'invalid_body');
    const form = expectStatus(await post('acme', 'record_type=x', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type');
    assert.deepEqual(form.accepted, ['application/json', 'application/x-ndjson', 'application/ndjson', 'application/jsonl']);
    assert.deepEqual(expectStatus(await post('acme', []), 200), { imported: 0 });
  });

  it('keeps imported records to their company and requires the operator token', async () => {
    expectStatus(await get('asset-1', 'globex'), 404);
    const response = await t.app.inject({ method: 'POST', url: '/admin/v1/companies/acme/records', payload: [] });
    expectStatus(response, 401, 'unauthorized');
    const asUser = await t.as('acme', { method: 'POST', url: '/admin/v1/companies/acme/records', payload: [] });
    expectStatus(asUser, 401, 'unauthorized');
  });

  it('lists existing ids together with the other problems, in the order of the body, across batches', async () => {
    const records = Array.from({ length: 2500 }, (_, i) => ({ id: `mixed-${i}`, record_type: 'uccfiling', status: 'filed' }));
    records[0] = { id: 'ucc-1', record_type: 'uccfiling', status: 'filed' };
    records[2] = { id: 'mixed-2', record_type: 'uccfiling', status: '' };
    records[1500] = { id: 'loan-1', record_type: 'uccfiling', status: 'filed' };
    records[2400] = { id: 'mixed-3', record_type: 'uccfiling', status: 'filed' };
    const body = expectStatus(await post('acme', records), 400, 'invalid_body');
    assert.deepEqual(body.errors, [
      { index: 0, field: 'id', message: "a record with id 'ucc-1' already exists" },
      { index: 2, field: 'status', message: 'must be a non-empty string' },
      { index: 1500, field: 'id', message: "a record with id 'loan-1' already exists" },
      { index: 2400, field: 'id', message: "'mixed-3' is also the id of records[3]" },
    ]);
    assert.equal(body.error_count, 4);
    assert.match(body.message, /^nothing was imported: 4 problem\(s\): \[0\]\.id a record with id 'ucc-1' already exists; \[2\]\.status /);
    expectStatus(await get('mixed-1'), 404);
    expectStatus(await get('mixed-2499'), 404);
  });

  it('refuses text the databases cannot store, naming the record and the place', async () => {
    const array = await post('acme', [
      { id: 'text-1', record_type: 'uccfiling', status: 'filed' },
      { id: 'text-2', record_type: 'custom', uid: 'loan', fields: { Amount: 1, Borrower: 'A\u0000da' }, child_records: [{ id: 'x\ud800' }] },
    ]);
    assert.deepEqual(expectStatus(array, 400, 'invalid_body').errors, [
      { index: 1, field: 'fields.Borrower', message: 'text may not hold NUL characters or unpaired surrogates' },
      { index: 1, field: 'child_records[0].id', message: 'text may not hold NUL characters or unpaired surrogates' },
    ]);
    const ndjson = await post(
      'acme',
      '{"id":"text-3","record_type":"uccfiling","status":"filed"}\n{"record_type":"uccfiling","status":"filed","instance":{"a\\udc00":1}}\n',
      'application/x-ndjson',
    );
    assert.deepEqual(expectStatus(ndjson, 400, 'invalid_body').errors, [
      { index: 1, field: 'instance', message: 'line 2: a key may not hold NUL characters or unpaired surrogates' },
    ]);
    expectStatus(await get('text-1'), 404);
    expectStatus(await get('text-3'), 404);
  });

  it('replays a retried import with the same Idempotency-Key, storing its records once', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ id: `again-${i}`, record_type: 'uccfiling', status: 'filed' })).join('\n');
    const send = () =>
      t.admin({
        method: 'POST',
        url: '/admin/v1/companies/acme/records',
        headers: { 'content-type': 'application/x-ndjson', 'idempotency-key': 'import-again' },
        payload: lines,
      });
    assert.deepEqual(expectStatus(await send(), 201), { imported: 3000 });
    const retry = await send();
    assert.deepEqual(expectStatus(retry, 201), { imported: 3000 });
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    const other = await t.admin({
      method: 'POST',
      url: '/admin/v1/companies/acme/records',
      headers: { 'content-type': 'application/x-ndjson', 'idempotency-key': 'import-again' },
      payload: lines.slice(0, lines.lastIndexOf('\n')),
    });
    expectStatus(other, 422, 'idempotency_key_reused');
    expectStatus(await get('again-2999'), 200);
  });

  it('imports a larger batch in one go', async () => {
    const many = Array.from({ length: 1500 }, (_, i) => ({
      id: `bulk-${i}`,
      record_type: 'infoleaseasset',
      status: 'on_lease',
      views: ['bulk'],
      created_at: new Date(Date.parse('2023-01-01T00:00:00Z') + i * 1000).toISOString(),
    }));
    await importRecords(t, 'acme', many);
    const page = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/records?view_id=bulk&limit=100' }), 200);
    assert.equal(page.count, 100);
    assert.equal(page.results[0].id, 'bulk-0');
  });
});

/** Records stored for a company, counted in the database. */
async function storedCount(t: TestApp, company: string): Promise<number> {
  const row = await t.ctx.database.db
    .selectFrom('records')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('company_id', '=', company)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describeEachDatabase('records: import streamed over a real connection', (kind) => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await createTestApp(kind);
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => t.close());

  const record = (id: string) =>
    JSON.stringify({ id, record_type: 'uccfiling', status: 'filed', instance: { filing_number: id, debtor: { name: 'Acme Corp' } }, fields: { Amount: 1 } });

  /** Sends NDJSON lines as a chunked stream, 500 lines a chunk, and reads the answer. */
  function streamImport(company: string, lines: Iterable<string>): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const req = request(
        `${base}/admin/v1/companies/${company}/records`,
        { method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      Readable.from(
        (function* () {
          let chunk: string[] = [];
          for (const line of lines) {
            chunk.push(line);
            if (chunk.length === 500) {
              yield `${chunk.join('\n')}\n`;
              chunk = [];
            }
          }
          if (chunk.length > 0) yield chunk.join('\n');
        })(),
      ).pipe(req);
    });
  }

  const big = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => record(`${prefix}-${i}`));
  // Large enough that an import reads, checks and writes several batches in its one transaction,
  // which is what these tests are about: more records would only repeat the same batches.
  const LARGE = 5 * IMPORT_BATCH_RECORDS;

  it('imports several batches of records sent as a stream', async () => {
    const answer = await streamImport('stream-big', big('big', LARGE));
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    assert.deepEqual(answer.body, { imported: LARGE });
    assert.equal(await storedCount(t, 'stream-big'), LARGE);
    const last = (await t.as('stream-big', { url: `/v1/records/big-${LARGE - 1}` })).json();
    assert.deepEqual(last.instance, { filing_number: `big-${LARGE - 1}`, debtor: { name: 'Acme Corp' } });
  });

  it('stores nothing when a bad record and an existing id come near the end of a large import', async () => {
    const lines = big('end', LARGE);
    const [bad, existing] = [LARGE - 10, LARGE - 5];
    lines[bad] = JSON.stringify({ id: 'end-bad', record_type: 'uccfiling', status: 7 });
    lines[existing] = record('big-5');
    const answer = await streamImport('stream-big', lines);
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.errors, [
      { index: bad, field: 'status', message: `line ${bad + 1}: must be a non-empty string` },
      { index: existing, field: 'id', message: `line ${existing + 1}: a record with id 'big-5' already exists` },
    ]);
    assert.equal(answer.body.error_count, 2);
    assert.match(answer.body.message, /^nothing was imported: 2 problem\(s\)/);
    assert.equal(await storedCount(t, 'stream-big'), LARGE, 'the batches written before the bad record were rolled back');
    assert.equal((await t.as('stream-big', { url: '/v1/records/end-0' })).statusCode, 404);
    // The write lock was let go: the same records, put right, import at once.
    lines[bad] = record(`end-${bad}`);
    lines[existing] = record(`end-${existing}`);
    assert.deepEqual(await streamImport('stream-big', lines), { status: 201, body: { imported: LARGE } });
  });

  it('stores nothing when the client disconnects in the middle of the body, and keeps serving', async () => {
    // The half sent before the cut holds several batches, written before the service sees the end.
    const body = `${big('cut', 6 * IMPORT_BATCH_RECORDS).join('\n')}\n`;
    await new Promise<void>((resolve) => {
      const req = request(`${base}/admin/v1/companies/stream-cut/records`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
      });
      req.on('error', () => resolve());
      // Half the body, then the connection is dropped while the service is storing.
      req.write(body.slice(0, body.length / 2), () => setTimeout(() => req.destroy(), 200));
    });
    // The service notices, rolls back and keeps serving: for a second, nothing may show up.
    for (let attempt = 0; attempt < 50; attempt++) {
      assert.equal(await storedCount(t, 'stream-cut'), 0);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.deepEqual(await streamImport('stream-cut', big('cut', 3)), { status: 201, body: { imported: 3 } });
    assert.equal(await storedCount(t, 'stream-cut'), 3);
  });
});
