import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType, expectStatus, importRecords, pathOf } from './fixtures.js';

const MEMO_TYPE = { name: 'Memo', fields: [{ uid: 'f_note', field_name: 'Note', type: 'string' }] };

describeEachDatabase('GET /v1/records?record_type=<a custom type ID>', (kind) => {
  let t: TestApp;
  const loans: string[] = [];
  let memo: string;
  const list = async (company: string, query: string) => expectStatus(await t.as(company, { method: 'GET', url: `/v1/records${query}` }), 200);
  const ids = (page: { results: { id: string }[] }) => page.results.map((record) => record.id);

  before(async () => {
    t = await createTestApp(kind);
    await defineType(t, 'acme', 'loan');
    await defineType(t, 'acme', 'memo', MEMO_TYPE);
    await defineType(t, 'globex', 'globex-only', MEMO_TYPE);
    for (let i = 0; i < 3; i++) loans.push((await createRecord(t, 'acme', 'loan')).id);
    memo = (await createRecord(t, 'acme', 'memo', { f_note: 'hello' })).id;
    await createRecord(t, 'globex', 'globex-only', { f_note: 'theirs' });
    await importRecords(t, 'acme', [{ id: 'ucc-1', record_type: 'uccfiling', status: 'filed' }]);
  });
  after(() => t.close());

  it("lists the records of that type only, and its links keep the type's ID", async () => {
    assert.deepEqual(ids(await list('acme', '?record_type=loan')), loans);
    assert.deepEqual(ids(await list('acme', '?recordType=memo')), [memo]);
    const first = await list('acme', '?record_type=loan&limit=2');
    assert.deepEqual(ids(first), loans.slice(0, 2));
    assert.match(first.next, /record_type=loan/);
    assert.deepEqual(ids(await list('acme', pathOf(first.next).replace('/v1/records', ''))), loans.slice(2));
  });

  it('keeps the kinds as they were: custom is every custom record, uccfiling the imported filings', async () => {
    assert.deepEqual(ids(await list('acme', '?record_type=custom')), [...loans, memo]);
    assert.deepEqual(ids(await list('acme', '?record_type=uccfiling')), ['ucc-1']);
  });

  it("finds nothing for an unknown ID or another company's type", async () => {
    assert.deepEqual(await list('acme', '?record_type=no-such-type'), { count: 0, next: null, prev: null, results: [] });
    assert.equal((await list('acme', '?record_type=globex-only')).count, 0);
    assert.equal((await list('globex', '?record_type=globex-only')).count, 1);
  });
});
