import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, it } from 'node:test';
import { OFFBOARDING_ORDER } from '../../src/storage/table-registry.js';
import { lobCheck } from '../checks/check-factory.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { minimalTemplate } from '../pdf/fixtures/templates.js';
import { createRecord, defineType, expectStatus } from '../records/fixtures.js';
import { crashingContext, ingestUserEvents, lapseLeases, untilDone } from './lifecycle-fixtures.js';

const BATCH = 5;

describeEachDatabase('offboarding a company (operator API)', (kind) => {
  let t: TestApp;

  before(async () => {
    t = await createTestApp(kind, { env: { WRS_LIFECYCLE_BATCH_ROWS: String(BATCH), WRS_WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
  });
  after(() => t.close());

  /** Rows of `company` in every company table. */
  const rowsOf = async (company: string): Promise<Record<string, number>> => {
    const counts: Record<string, number> = {};
    for (const table of OFFBOARDING_ORDER) {
      const row = await t.ctx.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', company)
        .executeTakeFirstOrThrow();
      counts[table] = Number(row.n);
    }
    return counts;
  };

  /** Something in every table a company's use of the service fills. */
  const populate = async (company: string, events: number) => {
    expectStatus(
      await t.as(company, { method: 'POST', url: '/v1/webhooks', payload: { url: 'http://127.0.0.1:9/hook', events: ['events.ingested', 'record.created'] } }),
      201,
    );
    await ingestUserEvents(t, company, 'user-a', events, `${company}-a`);
    await defineType(t, company, 'loan');
    const record = await createRecord(t, company, 'loan');
    expectStatus(
      await t.as(company, {
        method: 'POST',
        url: '/v1/records/loan',
        payload: { f_amount: 1, f_borrower: 'Bo' },
        headers: { 'idempotency-key': `${company}-k1` },
      }),
      201,
    );
    // A row of the records' stored-view index, written directly: one row is enough to see it removed.
    await t.ctx.database.db.insertInto('record_stored_views').values({ company_id: company, view_id: 'mine', record_id: record.id }).execute();
    expectStatus(await t.as(company, { method: 'POST', url: `/v1/records/${record.id}/tokens`, payload: {} }), 201);
    expectStatus(await t.admin({ method: 'PUT', url: `/admin/v1/companies/${company}/templates/letter`, payload: minimalTemplate() }), 201);
    const bytes = Buffer.from(`%PDF-1.4 ${company}`);
    await t.ctx.files.store(company, {
      recordId: record.id,
      filename: 'letter.pdf',
      contentType: 'application/pdf',
      templateId: 'letter',
      bytes,
      pages: 1,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    expectStatus(await t.admin({ method: 'POST', url: `/admin/v1/companies/${company}/checks`, payload: [lobCheck()] }), 201);
    await t.ctx.checkProviders.setLobKey(company, 'test_0123456789abcdef0123456789abcdef');
    const erasure = expectStatus(await t.admin({ method: 'POST', url: `/admin/v1/companies/${company}/erasures`, payload: { user_id: 'nobody' } }), 202);
    await untilDone(t, `/admin/v1/companies/${company}/erasures/${erasure.id}`);
    expectStatus(await t.admin({ method: 'PUT', url: `/admin/v1/companies/${company}/retention`, payload: { retention_days: 3650 } }), 200);
  };

  it('deletes every row and file of the company, reports the rows per table, and leaves other companies alone', async () => {
    await populate('leaving', 23);
    await populate('staying', 6);
    const before = await rowsOf('leaving');
    for (const table of OFFBOARDING_ORDER) assert.ok(before[table]! > 0, `the test puts rows of 'leaving' in ${table}`);
    const staying = await rowsOf('staying');
    const listed = await t.as('leaving', { method: 'GET', url: '/v1/events' });

    const started = expectStatus(await t.admin({ method: 'POST', url: '/admin/v1/companies/leaving/offboarding' }), 202);
    assert.equal(started.company_id, 'leaving');
    assert.equal(started.requested_by, 'operator_api');
    const report = await untilDone(t, '/admin/v1/companies/leaving/offboarding');
    assert.deepEqual(report.removed, before);
    assert.deepEqual(Object.keys(report.removed), [...OFFBOARDING_ORDER]);
    const total = Object.values(before).reduce((sum, rows) => sum + rows, 0);
    assert.ok(report.batches >= Math.ceil(total / BATCH) && report.batches <= total, `${report.batches} batches for ${total} rows`);

    assert.deepEqual(
      Object.values(await rowsOf('leaving')),
      OFFBOARDING_ORDER.map(() => 0),
    );
    assert.deepEqual(await rowsOf('staying'), staying);
    const afterwards = await t.as('leaving', { method: 'GET', url: '/v1/events', headers: { 'if-none-match': listed.headers.etag as string } });
    assert.equal(afterwards.statusCode, 200);
    assert.equal(afterwards.json().count, 0);
    assert.equal((await t.as('staying', { method: 'GET', url: '/v1/events' })).json().count, 6);

    // Asked again: a new run over what is there now (nothing), with its own report.
    expectStatus(await t.admin({ method: 'POST', url: '/admin/v1/companies/leaving/offboarding' }), 202);
    const again = await untilDone(t, '/admin/v1/companies/leaving/offboarding');
    assert.deepEqual(
      Object.values(again.removed),
      OFFBOARDING_ORDER.map(() => 0),
    );
  });

  it('continues an offboarding a crashed process left half done', async () => {
    await ingestUserEvents(t, 'halfway', 'user-a', 40, 'halfway-a');
    await ingestUserEvents(t, 'bystander', 'user-a', 3, 'bystander-a');
    const crashing = await crashingContext(t, 18);
    try {
      await crashing.offboardings.request('halfway', 'cli');
      await assert.rejects(crashing.offboardings.run('halfway'), /simulated crash/);
    } finally {
      await crashing.close();
    }
    const halfDone = expectStatus(await t.admin({ method: 'GET', url: '/admin/v1/companies/halfway/offboarding' }), 200);
    assert.equal(halfDone.state, 'running');
    assert.equal(halfDone.requested_by, 'cli');
    // The tables before events held nothing, or a few dictionary rows: the crash came amid the events.
    assert.ok(halfDone.removed.events > 0 && halfDone.removed.events < 40, JSON.stringify(halfDone.removed));

    await lapseLeases(t.ctx);
    const [resumed] = await t.ctx.offboardings.resumeUnfinished();
    assert.equal(resumed!.state, 'done');
    assert.equal(resumed!.removed.events, 40);
    assert.equal((await rowsOf('halfway')).events, 0);
    assert.equal((await rowsOf('bystander')).events, 3);
  });

  it('answers 404 for a company never offboarded, and 400 for a malformed company', async () => {
    expectStatus(await t.admin({ method: 'GET', url: '/admin/v1/companies/never/offboarding' }), 404, 'not_found');
    expectStatus(await t.admin({ method: 'POST', url: '/admin/v1/companies/%20bad/offboarding' }), 400);
    expectStatus(await t.app.inject({ method: 'POST', url: '/admin/v1/companies/never/offboarding' }), 401);
  });
});
