import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType, expectStatus, importRecords, LOAN_TYPE, VALID_LOAN } from '../records/fixtures.js';

/** The loan type with a form: the borrower is shown read-only, the amount and due date editable, the status not. */
const FORM = {
  title: 'Equipment loan',
  instructions: 'Check your name and enter the amount you need.',
  fields: [{ uid: 'f_borrower', editable: false }, { uid: 'f_amount' }, { uid: 'f_due', editable: true }],
};

describeEachDatabase('narrowed record tokens', (kind) => {
  let t: TestApp;

  before(async () => {
    t = await createTestApp(kind);
    await defineType(t, 'acme', 'loan', LOAN_TYPE);
    await defineType(t, 'acme', 'formloan', { ...LOAN_TYPE, name: 'Form loan', form: FORM });
  });
  after(() => t.close());

  const mint = async (recordId: string, payload?: object) =>
    expectStatus(await t.as('acme', { method: 'POST', url: `/v1/records/${recordId}/tokens`, ...(payload ? { payload } : {}) }, 'user-1'), 201);
  const withToken = (token: string, method: 'GET' | 'PATCH', url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${token}`, ...headers }, ...(payload ? { payload } : {}) });
  const asUser = async (recordId: string) => expectStatus(await t.as('acme', { method: 'GET', url: `/v1/records/${recordId}` }), 200);

  it('stores the form with the type and answers it (editable defaults to true, status_editable to false)', async () => {
    const type = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/record-types/formloan' }), 200);
    assert.deepEqual(type.form, {
      title: 'Equipment loan',
      instructions: 'Check your name and enter the amount you need.',
      fields: [
        { uid: 'f_borrower', editable: false },
        { uid: 'f_amount', editable: true },
        { uid: 'f_due', editable: true },
      ],
      status_editable: false,
    });
    const plain = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/record-types/loan' }), 200);
    assert.equal('form' in plain, false);
  });

  it('refuses a form naming a field the type does not have, or without fields, with every problem at once', async () => {
    const response = await t.admin({
      method: 'PUT',
      url: '/admin/v1/companies/acme/record-types/badform',
      payload: { ...LOAN_TYPE, form: { fields: [{ uid: 'f_amount' }, { uid: 'f_nope' }, { uid: 'f_amount' }], status_editable: 'yes' } },
    });
    const body = expectStatus(response, 400, 'invalid_body');
    assert.match(body.message, /form\.fields\[1\]\.uid: 'f_nope' is not a field of the type/);
    assert.match(body.message, /form\.fields\[2\]\.uid: duplicate uid 'f_amount'/);
    assert.match(body.message, /form\.status_editable: must be true or false/);
    const noFields = await t.admin({ method: 'PUT', url: '/admin/v1/companies/acme/record-types/badform', payload: { ...LOAN_TYPE, form: { title: 'x' } } });
    assert.match(expectStatus(noFields, 400).message, /form\.fields: must be an array of \{uid, editable\} \(missing\)/);
    expectStatus(await t.as('acme', { method: 'GET', url: '/v1/record-types/badform' }), 404);
  });

  it('a token of a type with a form sees only the form fields and may change only the editable ones', async () => {
    const record = await createRecord(t, 'acme', 'formloan');
    const minted = await mint(record.id);
    assert.deepEqual(minted.access, {
      fields: [
        { uid: 'f_borrower', editable: false },
        { uid: 'f_amount', editable: true },
        { uid: 'f_due', editable: true },
      ],
      status_editable: false,
    });
    assert.equal(minted.fields, null);
    assert.equal(minted.status_editable, null);
    assert.equal(minted.label, null);

    const seen = expectStatus(await withToken(minted.token, 'GET', `/v1/records/${record.id}`), 200);
    assert.deepEqual(seen.fields, { Amount: 1200.5, 'Due date': '2024-02-29', Borrower: 'Ada' });

    const updated = expectStatus(await withToken(minted.token, 'PATCH', `/v1/records/${record.id}`, { f_amount: 99 }), 200);
    assert.deepEqual(updated.fields, { Amount: 99, 'Due date': '2024-02-29', Borrower: 'Ada' });

    const before = await asUser(record.id);
    const refused = await withToken(minted.token, 'PATCH', `/v1/records/${record.id}`, { f_amount: 5, f_borrower: 'Eve', f_signed: true, status: 'done' });
    const error = expectStatus(refused, 403, 'forbidden');
    assert.match(error.message, /'f_borrower' \(read-only\)/);
    assert.match(error.message, /'f_signed' \(not visible\)/);
    assert.match(error.message, /'status' \(not editable\)/);
    assert.doesNotMatch(error.message, /f_amount/);
    assert.deepEqual(await asUser(record.id), before, 'nothing was changed');
  });

  it('minting narrows further: the token sees the intersection of the form and the mint', async () => {
    const record = await createRecord(t, 'acme', 'formloan');
    const minted = await mint(record.id, { fields: ['f_borrower', 'f_amount', 'f_signed'], status_editable: true, label: 'sent to J. Smith, borrower' });
    assert.deepEqual(minted.fields, ['f_borrower', 'f_amount', 'f_signed']);
    assert.equal(minted.status_editable, true);
    // f_signed is not in the form, f_due not in the mint; the form forbids the status whatever the mint says.
    assert.deepEqual(minted.access, {
      fields: [
        { uid: 'f_borrower', editable: false },
        { uid: 'f_amount', editable: true },
      ],
      status_editable: false,
    });
    const seen = expectStatus(await withToken(minted.token, 'GET', `/v1/records/${record.id}`), 200);
    assert.deepEqual(seen.fields, { Amount: 1200.5, Borrower: 'Ada' });
    const refused = expectStatus(await withToken(minted.token, 'PATCH', `/v1/records/${record.id}`, { f_due: '2025-01-01' }), 403, 'forbidden');
    assert.match(refused.message, /'f_due' \(not visible\)/);

    // Its type, as the token reads it for the form page: only what it sees, and what it may change.
    const type = expectStatus(await withToken(minted.token, 'GET', '/v1/record-types/formloan'), 200);
    assert.deepEqual(
      type.fields.map((field: { uid: string }) => field.uid),
      ['f_borrower', 'f_amount'],
    );
    assert.deepEqual(type.form, {
      title: 'Equipment loan',
      instructions: 'Check your name and enter the amount you need.',
      fields: [
        { uid: 'f_borrower', editable: false },
        { uid: 'f_amount', editable: true },
      ],
      status_editable: false,
    });
  });

  it('status_editable false on a type without a form: every field, but not the status', async () => {
    const record = await createRecord(t, 'acme', 'loan');
    const minted = await mint(record.id, { status_editable: false });
    assert.equal(minted.access.status_editable, false);
    assert.equal(minted.access.fields.length, LOAN_TYPE.fields.length);
    const seen = expectStatus(await withToken(minted.token, 'GET', `/v1/records/${record.id}`), 200);
    assert.deepEqual(seen, await asUser(record.id));
    expectStatus(await withToken(minted.token, 'PATCH', `/v1/records/${record.id}`, { f_signed: true }), 200);
    const before = await asUser(record.id);
    const refused = expectStatus(await withToken(minted.token, 'PATCH', `/v1/records/${record.id}`, { f_signed: false, status: 'done' }), 403, 'forbidden');
    assert.match(refused.message, /'status' \(not editable\)/);
    assert.deepEqual(await asUser(record.id), before);
  });

  it('a type without a form and a mint without narrowing: the token sees and changes everything, as before', async () => {
    const record = await createRecord(t, 'acme', 'loan');
    const minted = await mint(record.id);
    assert.deepEqual(minted.access, { fields: LOAN_TYPE.fields.map((field) => ({ uid: field.uid, editable: true })), status_editable: true });
    const seen = expectStatus(await withToken(minted.token, 'GET', `/v1/records/${record.id}`), 200);
    assert.deepEqual(seen.fields, { Amount: 1200.5, 'Due date': '2024-02-29', Signed: false, Borrower: 'Ada' });
    const updated = expectStatus(await withToken(minted.token, 'PATCH', `/v1/records/${record.id}`, { f_signed: true, status: 'done' }), 200);
    assert.equal(updated.status, 'done');
    assert.equal(updated.fields.Signed, true);
    // The type as the company's users read it, with the company's profile the hosted form shows.
    const { company, ...type } = expectStatus(await withToken(minted.token, 'GET', '/v1/record-types/loan'), 200);
    assert.deepEqual(type, expectStatus(await t.as('acme', { method: 'GET', url: '/v1/record-types/loan' }), 200));
    assert.deepEqual(company, { display_name: null, support_email: null });
  });

  it('refuses a mint naming fields the type does not have, or with a bad label or status_editable', async () => {
    const record = await createRecord(t, 'acme', 'formloan');
    const unknown = await t.as(
      'acme',
      { method: 'POST', url: `/v1/records/${record.id}/tokens`, payload: { fields: ['f_amount', 'f_nope', 'Amount'] } },
      'user-1',
    );
    assert.match(expectStatus(unknown, 400, 'invalid_body').message, /'f_nope', 'Amount' are not fields of type 'formloan'/);
    const legacy = await t.as('acme', { method: 'POST', url: `/v1/records/${record.id}/actions`, payload: { fields: ['f_nope'] } }, 'user-1');
    assert.match(expectStatus(legacy, 400, 'invalid_body').message, /'f_nope' is not a field of type 'formloan'/);
    const bad = await t.as(
      'acme',
      { method: 'POST', url: `/v1/records/${record.id}/tokens`, payload: { label: 'x'.repeat(201), status_editable: 'no' } },
      'user-1',
    );
    assert.equal(bad.statusCode, 400, bad.body);
    const listed = expectStatus(await t.as('acme', { method: 'GET', url: `/v1/records/${record.id}/tokens` }), 200);
    assert.equal(listed.count, 0, 'nothing was minted');

    await importRecords(t, 'acme', [{ id: 'untyped-1', record_type: 'uccfiling', status: 'filed' }]);
    const untyped = await t.as('acme', { method: 'POST', url: '/v1/records/untyped-1/tokens', payload: { fields: ['f_amount'] } }, 'user-1');
    assert.match(expectStatus(untyped, 400).message, /of record 'untyped-1' \(it follows no record type\)/);
  });

  it('lists each token with its label and what it may do; the deprecated /actions narrows too', async () => {
    const record = await createRecord(t, 'acme', 'formloan');
    await mint(record.id, { label: 'sent to J. Smith, borrower', fields: ['f_amount'] });
    const legacy = expectStatus(
      await t.as('acme', { method: 'POST', url: `/v1/records/${record.id}/actions`, payload: { label: 'co-signer', status_editable: false } }, 'user-1'),
      201,
    );
    assert.equal(legacy.label, 'co-signer');
    const listed = expectStatus(await t.as('acme', { method: 'GET', url: `/v1/records/${record.id}/tokens` }), 200);
    assert.deepEqual(
      listed.results.map((token: { label: string; fields: string[] | null; access: unknown }) => [token.label, token.fields, token.access]),
      [
        ['sent to J. Smith, borrower', ['f_amount'], { fields: [{ uid: 'f_amount', editable: true }], status_editable: false }],
        [
          'co-signer',
          null,
          {
            fields: [
              { uid: 'f_borrower', editable: false },
              { uid: 'f_amount', editable: true },
              { uid: 'f_due', editable: true },
            ],
            status_editable: false,
          },
        ],
      ],
    );
    const seen = expectStatus(await withToken(legacy.token, 'GET', `/v1/records/${record.id}`), 200);
    assert.deepEqual(Object.keys(seen.fields), ['Amount', 'Due date', 'Borrower']);
  });

  it('the ETag of a narrowed GET is of what the token sees, and If-Match with it makes the PATCH', async () => {
    const record = await createRecord(t, 'acme', 'formloan', { ...VALID_LOAN, f_signed: true });
    const minted = await mint(record.id);
    const read = await withToken(minted.token, 'GET', `/v1/records/${record.id}`);
    const etag = read.headers.etag as string;
    assert.equal((await withToken(minted.token, 'GET', `/v1/records/${record.id}`, undefined, { 'if-none-match': etag })).statusCode, 304);
    const updated = await withToken(minted.token, 'PATCH', `/v1/records/${record.id}`, { f_amount: 7 }, { 'if-match': etag });
    assert.equal(expectStatus(updated, 200).fields.Amount, 7);
    assert.equal('Signed' in updated.json().fields, false);
    const stale = await withToken(minted.token, 'PATCH', `/v1/records/${record.id}`, { f_amount: 8 }, { 'if-match': etag });
    expectStatus(stale, 412);
  });

  it('a revoked narrowed token is refused as any revoked token', async () => {
    const record = await createRecord(t, 'acme', 'formloan');
    const minted = await mint(record.id, { fields: ['f_amount'], label: 'gone' });
    expectStatus(await t.as('acme', { method: 'DELETE', url: `/v1/records/${record.id}/tokens/${minted.key}` }), 204);
    expectStatus(await withToken(minted.token, 'GET', `/v1/records/${record.id}`), 401);
  });
});
