import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { DEMO_RECORD_TYPE_ID, seedDemoRecords } from '../../src/demo/demo-records.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { expectStatus } from './fixtures.js';

describeEachDatabase('records: demo workboard', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
  });
  after(() => t.close());

  it('seeds a loan type and linked records once, and nothing the second time', async () => {
    assert.equal(await seedDemoRecords(t.ctx, 'demo'), 21);
    assert.equal(await seedDemoRecords(t.ctx, 'demo'), 0);
    const type = expectStatus(await t.admin({ method: 'GET', url: `/admin/v1/companies/demo/record-types/${DEMO_RECORD_TYPE_ID}` }), 200);
    assert.equal(type.version, 1);

    const all = expectStatus(await t.as('demo', { method: 'GET', url: '/v1/records' }), 200);
    assert.equal(all.count, 20);
    const pipeline = expectStatus(await t.as('demo', { method: 'GET', url: '/v1/records?view_id=pipeline' }), 200);
    assert.ok(pipeline.count > 0);
    assert.ok(pipeline.results.every((r: { status: string }) => ['new', 'in_review'].includes(r.status)));
    const filings = expectStatus(await t.as('demo', { method: 'GET', url: '/v1/records?record_type=uccfiling' }), 200);
    assert.equal(filings.count, 4);
    // The seeded loans accept updates like any other record of their type.
    const loan = all.results.find((r: { record_type: string }) => r.record_type === 'custom');
    const updated = await t.as('demo', { method: 'PATCH', url: `/v1/records/${loan.id}`, payload: { status: 'funded', fld_signed: true } });
    assert.deepEqual(expectStatus(updated, 200).views, ['approved', 'all-loans']);
  });
});
