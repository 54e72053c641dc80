import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../src/lib/clock.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType, expectStatus, importRecords } from './fixtures.js';

describeEachDatabase('records of a type (operator API)', (kind) => {
  let t: TestApp;
  const clock = new ManualClock('2026-03-01T10:00:00.000Z');
  before(async () => {
    t = await createTestApp(kind, { clock });
  });
  after(() => t.close());

  const recordsUrl = (company: string, typeId: string, query = '') => `/admin/v1/companies/${company}/record-types/${typeId}/records${query}`;

  it('counts every record of the type and lists the most recently created first, as company users read them', async () => {
    await defineType(t, 'acme', 'loan');
    await defineType(t, 'acme', 'other', { name: 'Other', fields: [{ uid: 'x', field_name: 'X', type: 'string' }] });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      clock.advanceSeconds(1);
      ids.push((await createRecord(t, 'acme', 'loan', { f_amount: i, f_borrower: `B${i}` })).id);
    }
    await createRecord(t, 'acme', 'other', { x: 'not a loan' });
    await defineType(t, 'globex', 'loan');
    await createRecord(t, 'globex', 'loan', { f_amount: 1, f_borrower: 'another company' });

    const body = expectStatus(await t.admin({ method: 'GET', url: recordsUrl('acme', 'loan', '?limit=2') }), 200);
    assert.equal(body.count, 4);
    assert.deepEqual(
      body.results.map((record: { id: string }) => record.id),
      [ids[3], ids[2]],
    );
    const asUser = expectStatus(await t.as('acme', { method: 'GET', url: `/v1/records/${ids[3]}` }), 200);
    assert.deepEqual(body.results[0], asUser);

    const all = expectStatus(await t.admin({ method: 'GET', url: recordsUrl('acme', 'loan') }), 200);
    assert.deepEqual(
      all.results.map((record: { id: string }) => record.id),
      [...ids].reverse(),
    );
    assert.deepEqual(expectStatus(await t.admin({ method: 'GET', url: recordsUrl('acme', 'nothing-here') }), 200), { count: 0, results: [] });
  });

  it("answers a deleted type's records, which a new definition would apply to", async () => {
    await defineType(t, 'initech', 'loan');
    const record = await createRecord(t, 'initech', 'loan', { f_amount: 5, f_borrower: 'Ada' });
    await importRecords(t, 'initech', [{ id: 'imported-1', record_type: 'custom', uid: 'loan', status: 'new', fields: { Amount: 7 } }]);
    expectStatus(await t.admin({ method: 'DELETE', url: `/admin/v1/companies/initech/record-types/loan` }), 204);
    const body = expectStatus(await t.admin({ method: 'GET', url: recordsUrl('initech', 'loan') }), 200);
    assert.equal(body.count, 2);
    assert.deepEqual(body.results.map((r: { id: string }) => r.id).sort(), [record.id, 'imported-1'].sort());
  });

  it('refuses a bad limit, an unknown parameter and a company user token', async () => {
    for (const query of ['?limit=0', '?limit=101', '?limit=ten', '?status=new']) {
      expectStatus(await t.admin({ method: 'GET', url: recordsUrl('acme', 'loan', query) }), 400, 'invalid_query');
    }
    expectStatus(await t.as('acme', { method: 'GET', url: recordsUrl('acme', 'loan') }), 401, 'unauthorized');
  });
});
