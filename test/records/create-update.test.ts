import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../src/lib/clock.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType, expectStatus, importRecords, LOAN_TYPE, VALID_LOAN } from './fixtures.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describeEachDatabase('records: create, read, update', (kind) => {
  let t: TestApp;
  const clock = new ManualClock('2026-04-01T08:00:00.000Z');
  before(async () => {
    t = await createTestApp(kind, { clock });
    await defineType(t, 'acme', 'loan', LOAN_TYPE);
  });
  after(() => t.close());

  const create = (body: unknown, typeId = 'loan', company = 'acme') => t.as(company, { method: 'POST', url: `/v1/records/${typeId}`, payload: body as object });
  const patch = (id: string, body: unknown, company = 'acme') => t.as(company, { method: 'PATCH', url: `/v1/records/${id}`, payload: body as object });
  const get = (id: string, company = 'acme') => t.as(company, { method: 'GET', url: `/v1/records/${id}` });

  it('creates a record in the contract shape', async () => {
    clock.set('2026-04-01T08:00:00.123Z');
    const response = await create({ f_borrower: 'Ada', f_signed: true, f_amount: 0, f_due: '2024-02-29' });
    const record = expectStatus(response, 201);
    assert.match(record.id, UUID_V7);
    assert.deepEqual(record, {
      id: record.id,
      record_type: 'custom',
      uid: 'loan',
      status: 'new',
      parent_record: null,
      child_records: [],
      fields: { Amount: 0, 'Due date': '2024-02-29', Signed: true, Borrower: 'Ada' },
      linked: {},
      views: ['open', 'everything'],
      created_at: '2026-04-01T08:00:00.123Z',
      updated_at: '2026-04-01T08:00:00.123Z',
    });
    assert.deepEqual(expectStatus(await get(record.id), 200), record);
  });

  it('leaves optional fields out when absent, null or ""', async () => {
    const record = expectStatus(await create({ f_amount: 5, f_borrower: 'Bo', f_due: null, f_signed: '' }), 201);
    assert.deepEqual(record.fields, { Amount: 5, Borrower: 'Bo' });
  });

  it('reports unknown field IDs', async () => {
    const body = expectStatus(await create({ ...VALID_LOAN, nope: 1, Amount: 3 }), 400, 'validation_failed');
    assert.deepEqual(body, {
      message: body.message,
      code: 'validation_failed',
      invalid_fields: ['nope', 'Amount'],
      required_fields: [],
      type_errors: [],
      error_count: 2,
    });
    assert.ok(body.message.includes('nope'));
  });

  it('counts a required field that is absent, null or "" as missing', async () => {
    for (const value of [undefined, null, '']) {
      const payload: Record<string, unknown> = { f_amount: 1 };
      if (value !== undefined) payload.f_borrower = value;
      const body = expectStatus(await create(payload), 400, 'validation_failed');
      assert.deepEqual(body.required_fields, [{ uid: 'f_borrower', field_name: 'Borrower' }], JSON.stringify(payload));
      assert.deepEqual(body.invalid_fields, []);
      assert.deepEqual(body.type_errors, []);
    }
    const empty = expectStatus(await create({}), 400, 'validation_failed');
    assert.deepEqual(empty.required_fields, [
      { uid: 'f_amount', field_name: 'Amount' },
      { uid: 'f_borrower', field_name: 'Borrower' },
    ]);
  });

  const typeCases: Array<{ uid: string; field_name: string; expected: string; bad: unknown[] }> = [
    { uid: 'f_amount', field_name: 'Amount', expected: 'number', bad: ['12', true, [1], { n: 1 }] },
    { uid: 'f_signed', field_name: 'Signed', expected: 'boolean', bad: ['true', 1, 0, 'yes'] },
    { uid: 'f_borrower', field_name: 'Borrower', expected: 'string', bad: [12, false, ['Ada'], { name: 'Ada' }] },
    {
      uid: 'f_due',
      field_name: 'Due date',
      expected: 'date',
      bad: ['2023-02-29', '2024-13-01', '2024-04-31', '2024-00-10', '20240101', '2024-1-1', '2024-01-01T00:00:00Z', 20240101, true, ' 2024-01-01'],
    },
  ];
  for (const { uid, field_name, expected, bad } of typeCases) {
    it(`reports a wrong ${expected} value with the expected type`, async () => {
      for (const value of bad) {
        const body = expectStatus(await create({ ...VALID_LOAN, [uid]: value }), 400, 'validation_failed');
        assert.deepEqual(body.type_errors, [{ uid, field_name, expected }], JSON.stringify(value));
        assert.deepEqual(body.invalid_fields, []);
        assert.deepEqual(body.required_fields, []);
      }
    });
  }

  it('accepts real calendar dates, leap days included', async () => {
    for (const date of ['2024-02-29', '2000-02-29', '1999-12-31', '2026-01-01']) {
      const record = expectStatus(await create({ ...VALID_LOAN, f_due: date }), 201);
      assert.equal(record.fields['Due date'], date);
    }
    expectStatus(await create({ ...VALID_LOAN, f_due: '1900-02-29' }), 400, 'validation_failed');
  });

  it('reports every problem at once, in all three lists', async () => {
    const body = expectStatus(await create({ zzz: 1, f_amount: 'ten', f_due: '2023-02-30', status: 'done' }), 400, 'validation_failed');
    assert.deepEqual(body.invalid_fields, ['zzz', 'status']);
    assert.deepEqual(body.required_fields, [{ uid: 'f_borrower', field_name: 'Borrower' }]);
    assert.deepEqual(body.type_errors, [
      { uid: 'f_amount', field_name: 'Amount', expected: 'number' },
      { uid: 'f_due', field_name: 'Due date', expected: 'date' },
    ]);
  });

  it('refuses a body that is not a JSON object with invalid_body', async () => {
    for (const payload of ['[]', '[{"f_amount":1}]', '"text"', '42', 'null', 'true']) {
      const response = await t.as('acme', {
        method: 'POST',
        url: '/v1/records/loan',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expectStatus(response, 400, 'invalid_body');
    }
    const malformed = await t.as('acme', {
      method: 'POST',
      url: '/v1/records/loan',
      headers: { 'content-type': 'application/json' },
      payload: '{"f_amount":',
    });
    expectStatus(malformed, 400, 'invalid_body');
    expectStatus(await t.as('acme', { method: 'POST', url: '/v1/records/loan' }), 400);
  });

  it("answers 404 for an unknown type and for another company's type", async () => {
    expectStatus(await create(VALID_LOAN, 'no-such-type'), 404, 'not_found');
    expectStatus(await create(VALID_LOAN, 'loan', 'globex'), 404, 'not_found');
  });

  it("answers 404 for an unknown record and for another company's record", async () => {
    const record = await createRecord(t, 'acme', 'loan');
    expectStatus(await get('00000000-0000-7000-8000-000000000000'), 404, 'not_found');
    expectStatus(await get(record.id, 'globex'), 404, 'not_found');
    expectStatus(await patch(record.id, { f_amount: 1 }, 'globex'), 404, 'not_found');
    expectStatus(await patch('missing', { f_amount: 1 }), 404, 'not_found');
    assert.equal(expectStatus(await get(record.id), 200).fields.Amount, VALID_LOAN.f_amount, 'untouched by the other company');
  });

  it('merges an update by field UID, sets the status, bumps updated_at only', async () => {
    clock.set('2026-04-02T09:00:00.000Z');
    const record = await createRecord(t, 'acme', 'loan', { f_amount: 10, f_borrower: 'Cy', f_due: '2026-05-01' });
    clock.set('2026-04-02T09:30:00.500Z');
    const updated = expectStatus(await patch(record.id, { f_signed: true, f_amount: 11, status: 'in_review' }), 200);
    assert.deepEqual(updated, {
      ...record,
      status: 'in_review',
      fields: { Amount: 11, 'Due date': '2026-05-01', Signed: true, Borrower: 'Cy' },
      views: ['open', 'everything'],
      updated_at: '2026-04-02T09:30:00.500Z',
    });
    assert.deepEqual(expectStatus(await get(record.id), 200), updated);

    clock.advanceSeconds(1);
    const cleared = expectStatus(await patch(record.id, { f_due: null, f_signed: '' }), 200);
    assert.deepEqual(cleared.fields, { Amount: 11, Borrower: 'Cy' });
    assert.equal(cleared.updated_at, '2026-04-02T09:30:01.500Z');
    assert.equal(cleared.created_at, record.created_at);

    clock.advanceSeconds(1);
    const empty = expectStatus(await patch(record.id, {}), 200);
    assert.deepEqual(empty.fields, cleared.fields);
    assert.equal(empty.updated_at, '2026-04-02T09:30:02.500Z');
  });

  it('refuses a bad update with the same error body, and changes nothing', async () => {
    const record = await createRecord(t, 'acme', 'loan');
    const body = expectStatus(
      await patch(record.id, { f_borrower: null, f_amount: 'x', status: 'archived', other: 1, f_signed: true }),
      400,
      'validation_failed',
    );
    assert.deepEqual(body.invalid_fields, ['other']);
    assert.deepEqual(body.required_fields, [{ uid: 'f_borrower', field_name: 'Borrower' }]);
    assert.deepEqual(body.type_errors, [
      { uid: 'f_amount', field_name: 'Amount', expected: 'number' },
      { uid: 'status', field_name: 'status', expected: 'one of: new, in_review, done' },
    ]);
    for (const status of [null, 3, '', 'NEW']) {
      const refused = expectStatus(await patch(record.id, { status }), 400, 'validation_failed');
      assert.equal(refused.type_errors[0].uid, 'status');
    }
    expectStatus(await patch(record.id, { f_borrower: '' }), 400, 'validation_failed');
    assert.deepEqual(expectStatus(await get(record.id), 200), record);
    for (const payload of ['[]', '"x"', 'null']) {
      const response = await t.as('acme', {
        method: 'PATCH',
        url: `/v1/records/${record.id}`,
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expectStatus(response, 400, 'invalid_body');
    }
  });

  it('moves a record between views as its status changes', async () => {
    const record = await createRecord(t, 'acme', 'loan');
    const inView = async (viewId: string) => {
      const list = expectStatus(await t.as('acme', { method: 'GET', url: `/v1/records?view_id=${viewId}` }), 200);
      return list.results.some((r: { id: string }) => r.id === record.id);
    };
    assert.deepEqual(record.views, ['open', 'everything']);
    assert.equal(await inView('open'), true);
    assert.equal(await inView('closed'), false);

    const done = expectStatus(await patch(record.id, { status: 'done' }), 200);
    assert.deepEqual(done.views, ['closed', 'everything']);
    assert.equal(await inView('open'), false);
    assert.equal(await inView('closed'), true);
    assert.equal(await inView('everything'), true);
    assert.deepEqual(expectStatus(await get(record.id), 200).views, ['closed', 'everything']);

    // A redefined view applies at once, to reads and to the filter alike.
    await defineType(t, 'acme', 'loan', {
      ...LOAN_TYPE,
      views: [...LOAN_TYPE.views.slice(0, 1), { id: 'closed', name: 'Closed', statuses: ['in_review'] }, LOAN_TYPE.views[2]],
    });
    assert.deepEqual(expectStatus(await get(record.id), 200).views, ['everything']);
    assert.equal(await inView('closed'), false);
    await defineType(t, 'acme', 'loan', LOAN_TYPE);
  });

  it('keeps the records of a deleted type: readable, in no view, status-only updates, back when redefined', async () => {
    await defineType(t, 'acme', 'temp', {
      name: 'Temp',
      fields: [{ uid: 'a', field_name: 'A', type: 'string' }],
      statuses: ['x', 'y'],
      views: [{ id: 'vx', name: 'X', statuses: ['x'] }],
    });
    const record = await createRecord(t, 'acme', 'temp', { a: 'kept' });
    assert.deepEqual(record.views, ['vx']);
    expectStatus(await t.admin({ method: 'DELETE', url: '/admin/v1/companies/acme/record-types/temp' }), 204);

    const orphan = expectStatus(await get(record.id), 200);
    assert.deepEqual(orphan.views, []);
    assert.deepEqual(orphan.fields, { A: 'kept' });
    const refused = expectStatus(await patch(record.id, { a: 'changed' }), 400, 'validation_failed');
    assert.deepEqual(refused.invalid_fields, ['a']);
    const moved = expectStatus(await patch(record.id, { status: 'y' }), 200);
    assert.equal(moved.status, 'y');
    assert.deepEqual(moved.fields, { A: 'kept' });

    await defineType(t, 'acme', 'temp', {
      name: 'Temp',
      fields: [{ uid: 'a', field_name: 'A', type: 'string' }],
      statuses: ['x', 'y'],
      views: [{ id: 'vy', name: 'Y', statuses: ['y'] }],
    });
    assert.deepEqual(expectStatus(await get(record.id), 200).views, ['vy']);
  });

  it('updates imported records of other kinds by status only', async () => {
    await importRecords(t, 'acme', [{ id: 'ucc-upd-1', record_type: 'uccfiling', status: 'filed', instance: { n: 1 } }]);
    const refused = expectStatus(await patch('ucc-upd-1', { anything: 1, status: 7 }), 400, 'validation_failed');
    assert.deepEqual(refused.invalid_fields, ['anything']);
    assert.deepEqual(refused.type_errors, [{ uid: 'status', field_name: 'status', expected: 'string' }]);
    const updated = expectStatus(await patch('ucc-upd-1', { status: 'lapsed' }), 200);
    assert.equal(updated.status, 'lapsed');
    assert.deepEqual(updated.instance, { n: 1 });
    assert.equal(updated.fields, undefined);
  });

  it('keeps concurrent updates of different fields (no lost update)', async () => {
    const record = await createRecord(t, 'acme', 'loan');
    await Promise.all([
      patch(record.id, { f_amount: 99 }),
      patch(record.id, { f_signed: true }),
      patch(record.id, { f_due: '2030-01-01' }),
      patch(record.id, { status: 'done' }),
    ]);
    const final = expectStatus(await get(record.id), 200);
    assert.deepEqual(final.fields, { Amount: 99, 'Due date': '2030-01-01', Signed: true, Borrower: 'Ada' });
    assert.equal(final.status, 'done');
  });

  it('answers each of many records read at once with its own, and a write to every read made after it', async () => {
    const records = await Promise.all(Array.from({ length: 8 }, () => createRecord(t, 'acme', 'loan')));
    await defineType(t, 'globex', 'loan', LOAN_TYPE);
    const other = await createRecord(t, 'globex', 'loan');
    for (let round = 0; round < 3; round++) {
      // Under way while the patch commits: they may be read together, before or after it.
      const during = records.map((record) => get(record.id));
      expectStatus(await patch(records[round]!.id, { f_amount: 1000 + round }), 200);
      const reads = [...records, ...records].map((record) => ({ id: record.id, response: get(record.id) }));
      const missing = [get('no-such-record'), get(other.id)];
      for (const { id, response } of reads) {
        const record = expectStatus(await response, 200);
        assert.equal(record.id, id);
        if (id === records[round]!.id) assert.equal(record.fields.Amount, 1000 + round, 'read after the patch was answered');
      }
      for (const response of missing) expectStatus(await response, 404);
      for (const response of during) expectStatus(await response, 200);
    }
  });
});
