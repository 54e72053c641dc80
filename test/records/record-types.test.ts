import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { buildApp } from '../../src/http/app.js';
import { createAppContext } from '../../src/app-context.js';
import { ManualClock } from '../../src/lib/clock.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType, expectStatus, LOAN_TYPE, VALID_LOAN } from './fixtures.js';

describeEachDatabase('record types (operator API)', (kind) => {
  let t: TestApp;
  const clock = new ManualClock('2026-03-01T10:00:00.000Z');
  before(async () => {
    t = await createTestApp(kind, { clock });
  });
  after(() => t.close());

  const typeUrl = (company: string, typeId: string) => `/admin/v1/companies/${company}/record-types/${typeId}`;

  it('defines, reads, lists, replaces and deletes a type, never reusing a version', async () => {
    const created = await t.admin({ method: 'PUT', url: typeUrl('acme', 'loan'), payload: LOAN_TYPE });
    const body = expectStatus(created, 201);
    assert.deepEqual(body, {
      id: 'loan',
      ...LOAN_TYPE,
      version: 1,
      created_at: '2026-03-01T10:00:00.000Z',
      updated_at: '2026-03-01T10:00:00.000Z',
    });
    assert.deepEqual(expectStatus(await t.admin({ method: 'GET', url: typeUrl('acme', 'loan') }), 200), body);

    clock.advanceSeconds(60);
    const replaced = expectStatus(await t.admin({ method: 'PUT', url: typeUrl('acme', 'loan'), payload: { ...LOAN_TYPE, name: 'Loan v2' } }), 200);
    assert.equal(replaced.version, 2);
    assert.equal(replaced.name, 'Loan v2');
    assert.equal(replaced.created_at, '2026-03-01T10:00:00.000Z');
    assert.equal(replaced.updated_at, '2026-03-01T10:01:00.000Z');

    const list = expectStatus(await t.admin({ method: 'GET', url: '/admin/v1/companies/acme/record-types' }), 200);
    assert.equal(list.count, 1);
    assert.equal(list.results[0].version, 2);

    expectStatus(await t.admin({ method: 'DELETE', url: typeUrl('acme', 'loan') }), 204);
    expectStatus(await t.admin({ method: 'GET', url: typeUrl('acme', 'loan') }), 404, 'not_found');
    expectStatus(await t.admin({ method: 'DELETE', url: typeUrl('acme', 'loan') }), 404, 'not_found');
    expectStatus(await t.as('acme', { method: 'POST', url: '/v1/records/loan', payload: VALID_LOAN }), 404, 'not_found');

    clock.advanceSeconds(60);
    const again = expectStatus(await t.admin({ method: 'PUT', url: typeUrl('acme', 'loan'), payload: LOAN_TYPE }), 201);
    assert.equal(again.version, 3, 'a type defined again after a delete gets a new version');
    assert.equal(again.created_at, '2026-03-01T10:02:00.000Z');
  });

  it('fills optional parts of a definition: required false, no statuses, no views', async () => {
    const body = expectStatus(
      await t.admin({
        method: 'PUT',
        url: typeUrl('acme', 'minimal'),
        payload: { name: 'Minimal', fields: [{ uid: 'a', field_name: 'A', type: 'string' }] },
      }),
      201,
    );
    assert.deepEqual(body.fields, [{ uid: 'a', field_name: 'A', type: 'string', required: false }]);
    assert.deepEqual(body.statuses, []);
    assert.deepEqual(body.views, []);
    const record = await createRecord(t, 'acme', 'minimal', { a: 'x' });
    assert.equal(record.status, 'new', 'a type without statuses starts its records at "new"');
    assert.deepEqual(record.views, []);
  });

  const invalidCases: Array<{ name: string; payload: unknown; problems: string[] }> = [
    { name: 'missing name', payload: { fields: [] }, problems: ['name: must be a string (missing)'] },
    { name: 'blank name', payload: { name: '  ' }, problems: ['name: must not be empty'] },
    { name: 'unknown top-level property', payload: { name: 'X', colour: 'red' }, problems: ['colour: unknown property'] },
    { name: 'id differs from the path', payload: { id: 'other', name: 'X' }, problems: ["id: must equal the typeId of the path ('t1')"] },
    { name: 'fields not an array', payload: { name: 'X', fields: {} }, problems: ['fields: must be an array of {uid, field_name, type, required}'] },
    {
      name: 'unknown field type',
      payload: { name: 'X', fields: [{ uid: 'a', field_name: 'A', type: 'text' }] },
      problems: ['fields[0].type: must be one of boolean, number, string, date (got "text")'],
    },
    {
      name: 'missing field type',
      payload: { name: 'X', fields: [{ uid: 'a', field_name: 'A' }] },
      problems: ['fields[0].type: must be one of boolean, number, string, date (got null)'],
    },
    {
      name: 'duplicate uid',
      payload: {
        name: 'X',
        fields: [
          { uid: 'a', field_name: 'A', type: 'string' },
          { uid: 'a', field_name: 'B', type: 'string' },
        ],
      },
      problems: ["fields[1].uid: duplicate uid 'a' (also fields[0])"],
    },
    {
      name: 'duplicate field name',
      payload: {
        name: 'X',
        fields: [
          { uid: 'a', field_name: 'A', type: 'string' },
          { uid: 'b', field_name: 'A', type: 'number' },
        ],
      },
      problems: ["fields[1].field_name: duplicate field name 'A' (also fields[0])"],
    },
    {
      name: 'reserved uid',
      payload: { name: 'X', fields: [{ uid: 'status', field_name: 'Status', type: 'string' }] },
      problems: ["fields[0].uid: 'status' is reserved"],
    },
    {
      name: 'required not a boolean',
      payload: { name: 'X', fields: [{ uid: 'a', field_name: 'A', type: 'string', required: 'yes' }] },
      problems: ['fields[0].required: must be true or false'],
    },
    {
      name: 'unknown field property',
      payload: { name: 'X', fields: [{ uid: 'a', field_name: 'A', type: 'string', default: 1 }] },
      problems: ['fields[0].default: unknown property'],
    },
    { name: 'empty status', payload: { name: 'X', statuses: ['new', ''] }, problems: ['statuses[1]: must not be empty'] },
    { name: 'non-string status', payload: { name: 'X', statuses: [3] }, problems: ['statuses[0]: must be a string'] },
    { name: 'duplicate status', payload: { name: 'X', statuses: ['a', 'a'] }, problems: ["statuses[1]: duplicate status 'a'"] },
    {
      name: 'duplicate view id',
      payload: {
        name: 'X',
        views: [
          { id: 'v', name: 'V' },
          { id: 'v', name: 'W' },
        ],
      },
      problems: ["views[1].id: duplicate view id 'v' (also views[0])"],
    },
    {
      name: 'view with an unknown status',
      payload: { name: 'X', statuses: ['a'], views: [{ id: 'v', name: 'V', statuses: ['a', 'b'] }] },
      problems: ["views[0].statuses[1]: 'b' is not one of the type's statuses"],
    },
    { name: 'view without name', payload: { name: 'X', views: [{ id: 'v' }] }, problems: ['views[0].name: must be a string (missing)'] },
    {
      name: 'too long a name',
      payload: { name: 'x'.repeat(201) },
      problems: ['name: at most 200 characters'],
    },
  ];

  for (const { name, payload, problems } of invalidCases) {
    it(`refuses a definition with ${name}`, async () => {
      const response = await t.admin({ method: 'PUT', url: typeUrl('acme', 't1'), payload: payload as object });
      const body = expectStatus(response, 400, 'invalid_body');
      assert.deepEqual(body.problems, problems);
      for (const problem of problems) assert.ok(body.message.includes(problem), body.message);
    });
  }

  it('names every problem of a definition at once', async () => {
    const response = await t.admin({
      method: 'PUT',
      url: typeUrl('acme', 't1'),
      payload: {
        fields: [
          { uid: 'a', field_name: 'A', type: 'text' },
          { uid: 'a', field_name: 'A', type: 'number' },
        ],
        statuses: ['', 'x', 'x'],
        views: [
          { id: 'v', name: 'V', statuses: ['nope'] },
          { id: 'v', name: 'W' },
        ],
      },
    });
    const body = expectStatus(response, 400, 'invalid_body');
    assert.deepEqual(body.problems, [
      'name: must be a string (missing)',
      'statuses[0]: must not be empty',
      "statuses[2]: duplicate status 'x'",
      'fields[0].type: must be one of boolean, number, string, date (got "text")',
      "fields[1].uid: duplicate uid 'a' (also fields[0])",
      "fields[1].field_name: duplicate field name 'A' (also fields[0])",
      "views[0].statuses[0]: 'nope' is not one of the type's statuses",
      "views[1].id: duplicate view id 'v' (also views[0])",
    ]);
    expectStatus(await t.admin({ method: 'GET', url: typeUrl('acme', 't1') }), 404);
  });

  it('refuses a bad typeId and a body that is not an object', async () => {
    const badId = expectStatus(await t.admin({ method: 'PUT', url: typeUrl('acme', '-bad'), payload: { name: 'X' } }), 400, 'invalid_body');
    assert.ok(badId.problems[0].startsWith('typeId:'));
    for (const payload of ['[1,2]', '"text"', 'null', '3']) {
      const response = await t.admin({
        method: 'PUT',
        url: typeUrl('acme', 'x'),
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expectStatus(response, 400, 'invalid_body');
    }
  });

  it('applies a replaced definition to the very next request', async () => {
    await defineType(t, 'acme', 'swap', { name: 'Swap', fields: [{ uid: 'a', field_name: 'A', type: 'number', required: true }] });
    expectStatus(await t.as('acme', { method: 'POST', url: '/v1/records/swap', payload: { a: 'text' } }), 400, 'validation_failed');
    await defineType(t, 'acme', 'swap', { name: 'Swap', fields: [{ uid: 'a', field_name: 'A', type: 'string', required: true }] });
    const record = await createRecord(t, 'acme', 'swap', { a: 'text' });
    assert.deepEqual(record.fields, { A: 'text' });
  });

  it('sees a definition replaced by another replica (the cache is keyed by the stored version)', async () => {
    // A second app over the same database, as a second replica would be.
    const ctx2 = await createAppContext(t.ctx.config, { clock });
    const app2 = await buildApp(ctx2, { logger: false });
    try {
      await defineType(t, 'acme', 'shared', { name: 'S', fields: [{ uid: 'a', field_name: 'A', type: 'number' }] });
      const asAcme = { authorization: `Bearer ${await t.userToken('acme')}` };
      const first = await app2.inject({ method: 'POST', url: '/v1/records/shared', headers: asAcme, payload: { a: 1 } });
      expectStatus(first, 201);
      const replaced = await t.admin({
        method: 'PUT',
        url: typeUrl('acme', 'shared'),
        payload: { name: 'S', fields: [{ uid: 'b', field_name: 'B', type: 'boolean', required: true }] },
      });
      expectStatus(replaced, 200);
      const stale = await app2.inject({ method: 'POST', url: '/v1/records/shared', headers: asAcme, payload: { a: 1 } });
      const problems = expectStatus(stale, 400, 'validation_failed');
      assert.deepEqual(problems.invalid_fields, ['a']);
      assert.deepEqual(problems.required_fields, [{ uid: 'b', field_name: 'B' }]);
      const deleted = await app2.inject({
        method: 'DELETE',
        url: typeUrl('acme', 'shared'),
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      });
      expectStatus(deleted, 204);
      expectStatus(await t.as('acme', { method: 'POST', url: '/v1/records/shared', payload: { b: true } }), 404);
    } finally {
      await app2.close();
      await ctx2.close();
    }
  });

  it("keeps each company's types apart", async () => {
    await defineType(t, 'acme', 'private', LOAN_TYPE);
    expectStatus(await t.admin({ method: 'GET', url: typeUrl('globex', 'private') }), 404);
    expectStatus(await t.admin({ method: 'DELETE', url: typeUrl('globex', 'private') }), 404);
    expectStatus(await t.as('globex', { method: 'POST', url: '/v1/records/private', payload: VALID_LOAN }), 404, 'not_found');

    // Defining the same typeId in another company makes a separate type and leaves acme's alone.
    const other = expectStatus(await t.admin({ method: 'PUT', url: typeUrl('globex', 'private'), payload: { name: 'Globex private' } }), 201);
    assert.equal(other.version, 1);
    const acme = expectStatus(await t.admin({ method: 'GET', url: typeUrl('acme', 'private') }), 200);
    assert.equal(acme.name, 'Loan');
    assert.deepEqual(acme.fields, LOAN_TYPE.fields);
    await createRecord(t, 'acme', 'private', VALID_LOAN);
    expectStatus(await t.as('globex', { method: 'POST', url: '/v1/records/private', payload: VALID_LOAN }), 400, 'validation_failed');
  });

  it('requires the operator token', async () => {
    const response = await t.app.inject({ method: 'PUT', url: typeUrl('acme', 'x'), payload: { name: 'X' } });
    expectStatus(response, 401, 'unauthorized');
    const withUserToken = await t.as('acme', { method: 'GET', url: typeUrl('acme', 'loan') });
    expectStatus(withUserToken, 401, 'unauthorized');
  });
});
