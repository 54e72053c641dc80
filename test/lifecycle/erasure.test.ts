import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType, expectStatus } from '../records/fixtures.js';
import { crashingContext, ingestUserEvents, lapseLeases, untilDone } from './lifecycle-fixtures.js';

const BATCH = 7;
const ADA = 'ada-7f3c@example.com';
const BOB = 'bob-19e2@example.com';

describeEachDatabase("erasing a person's data (operator API)", (kind) => {
  let t: TestApp;

  before(async () => {
    t = await createTestApp(kind, { env: { WRS_LIFECYCLE_BATCH_ROWS: String(BATCH) } });
  });
  after(() => t.close());

  const eventsOf = async (company: string, userId: string | null) => {
    const query = t.ctx.database.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', company);
    const row = await (userId === null ? query.where('user_id', 'is', null) : query.where('user_id', '=', userId)).executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const tokensOf = async (company: string, userId: string) =>
    Number(
      (
        await t.ctx.database.db
          .selectFrom('record_tokens')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('company_id', '=', company)
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const mint = async (company: string, recordId: string, userId: string) =>
    expectStatus(await t.as(company, { method: 'POST', url: `/v1/records/${recordId}/tokens`, payload: {} }, userId), 201).token as string;
  const erase = (company: string, payload: unknown) => t.admin({ method: 'POST', url: `/admin/v1/companies/${company}/erasures`, payload: payload as object });

  it("removes the person's events and the record tokens they minted, and nothing else", async () => {
    await ingestUserEvents(t, 'acme', ADA, 25, 'acme-ada');
    await ingestUserEvents(t, 'acme', BOB, 5, 'acme-bob');
    await ingestUserEvents(t, 'acme', null, 3, 'acme-anon');
    await ingestUserEvents(t, 'globex', ADA, 4, 'globex-ada');
    await defineType(t, 'acme', 'loan');
    const record = await createRecord(t, 'acme', 'loan');
    const adaTokens = [await mint('acme', record.id, ADA), await mint('acme', record.id, ADA)];
    const bobToken = await mint('acme', record.id, BOB);
    const listed = await t.as('acme', { method: 'GET', url: '/v1/events?limit=100' });
    const etag = listed.headers.etag as string;
    assert.equal(listed.json().count, 33);
    const feedBefore = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/events/changes?limit=100' }), 200);
    assert.equal(feedBefore.count, 33);

    const started = await erase('acme', { user_id: ADA });
    const job = expectStatus(started, 202);
    assert.equal(started.headers.location, `/admin/v1/companies/acme/erasures/${job.id}`);
    const done = await untilDone(t, `/admin/v1/companies/acme/erasures/${job.id}`);
    assert.deepEqual(done.removed, { events: 25, record_tokens: 2 });
    // 25 events and 2 tokens, 7 rows a transaction.
    assert.equal(done.batches, 4);

    assert.equal(await eventsOf('acme', ADA), 0);
    assert.equal(await eventsOf('acme', BOB), 5);
    assert.equal(await eventsOf('acme', null), 3);
    assert.equal(await eventsOf('globex', ADA), 4);
    assert.equal(await tokensOf('acme', ADA), 0);
    assert.equal(await tokensOf('acme', BOB), 1);

    // The list's ETag and page cache move on; the feed no longer replays the erased events.
    const after = await t.as('acme', { method: 'GET', url: '/v1/events?limit=100', headers: { 'if-none-match': etag } });
    assert.equal(after.statusCode, 200);
    assert.equal(after.json().count, 8);
    assert.ok(!after.body.includes(ADA));
    const feedAfter = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/events/changes?limit=100' }), 200);
    assert.equal(feedAfter.count, 8);
    assert.ok(!JSON.stringify(feedAfter).includes(ADA));
    // A token the person minted is refused; another user's still works.
    for (const token of adaTokens) {
      const refused = await t.app.inject({ method: 'GET', url: `/v1/records/${record.id}`, headers: { authorization: `Bearer ${token}` } });
      assert.equal(refused.statusCode, 401, refused.body);
    }
    const allowed = await t.app.inject({ method: 'GET', url: `/v1/records/${record.id}`, headers: { authorization: `Bearer ${bobToken}` } });
    assert.equal(allowed.statusCode, 200, allowed.body);
  });

  it('leaves an audit entry with who asked, when and the counts, never the value', async () => {
    await ingestUserEvents(t, 'audit', ADA, 3, 'audit-ada');
    const job = expectStatus(await erase('audit', { user_key: ADA }), 202);
    await untilDone(t, `/admin/v1/companies/audit/erasures/${job.id}`);
    const list = expectStatus(await t.admin({ method: 'GET', url: '/admin/v1/companies/audit/erasures' }), 200);
    assert.equal(list.count, 1);
    const [entry] = list.results;
    assert.equal(entry.id, job.id);
    assert.equal(entry.company_id, 'audit');
    assert.equal(entry.field, 'user_id');
    assert.equal(entry.requested_by, 'operator_api');
    assert.equal(entry.state, 'done');
    assert.deepEqual(entry.removed, { events: 3, record_tokens: 0 });
    assert.match(entry.subject_hash, /^[0-9a-f]{64}$/);
    assert.ok(entry.requested_at <= entry.finished_at);
    assert.ok(!JSON.stringify(list).includes(ADA));
    // Nor in the stored row: the sealed value is forgotten once the job is done.
    const rows = await t.ctx.database.db.selectFrom('erasures').selectAll().where('company_id', '=', 'audit').execute();
    assert.equal(rows[0]!.subject_sealed, null);
    assert.ok(!JSON.stringify(rows).includes(ADA));

    // The same person asked again: a new entry with the same hash, nothing more removed.
    const again = expectStatus(await erase('audit', { user_id: ADA }), 202);
    assert.notEqual(again.id, job.id);
    const second = await untilDone(t, `/admin/v1/companies/audit/erasures/${again.id}`);
    assert.equal(second.subject_hash, entry.subject_hash);
    assert.deepEqual(second.removed, { events: 0, record_tokens: 0 });
    // Another company's hash of the same value differs: entries cannot be linked across companies.
    const other = expectStatus(await erase('audit-2', { user_id: ADA }), 202);
    assert.notEqual((await untilDone(t, `/admin/v1/companies/audit-2/erasures/${other.id}`)).subject_hash, entry.subject_hash);
  });

  it('continues a job a crashed process left half done, without counting a row twice', async () => {
    await ingestUserEvents(t, 'crash', ADA, 30, 'crash-ada');
    await ingestUserEvents(t, 'crash', BOB, 2, 'crash-bob');
    const crashing = await crashingContext(t, 2);
    let id: string;
    try {
      ({
        erasure: { id },
      } = await crashing.erasures.request('crash', { user_id: ADA }, 'operator_api'));
      await assert.rejects(crashing.erasures.run('crash', id), /simulated crash/);
    } finally {
      await crashing.close();
    }
    const halfDone = expectStatus(await t.admin({ method: 'GET', url: `/admin/v1/companies/crash/erasures/${id}` }), 200);
    assert.equal(halfDone.state, 'running');
    assert.deepEqual(halfDone.removed, { events: 2 * BATCH, record_tokens: 0 });

    // Asked again while the crashed process still holds its lease: the same job, not a second one.
    const same = expectStatus(await erase('crash', { user_id: ADA }), 202);
    assert.equal(same.id, id);
    // The request also launched the job, which found the lease held; it must have ended before the lease lapses below.
    await t.ctx.lifecycleJobs.settled();
    assert.deepEqual(await t.ctx.erasures.resumeUnfinished().then((jobs) => jobs.map((job) => job.state)), ['running']);

    // Once the lease has lapsed, a restarted service continues it.
    await lapseLeases(t.ctx);
    const [resumed] = await t.ctx.erasures.resumeUnfinished();
    assert.equal(resumed!.state, 'done');
    assert.deepEqual(resumed!.removed, { events: 30, record_tokens: 0 });
    assert.equal(await eventsOf('crash', ADA), 0);
    assert.equal(await eventsOf('crash', BOB), 2);
    assert.equal((await t.admin({ method: 'GET', url: '/admin/v1/companies/crash/erasures' })).json().count, 1);
  });

  it('refuses a request without exactly one of user_id and user_key', async () => {
    expectStatus(await erase('acme', {}), 400, 'invalid_body');
    const both = expectStatus(await erase('acme', { user_id: ADA, user_key: ADA }), 400, 'invalid_body');
    assert.match(both.message, /not both/);
    expectStatus(await erase('acme', { user_id: '' }), 400);
    expectStatus(await erase('acme', { user_id: ADA, extra: 1 }), 400);
    expectStatus(await erase('acme', [ADA]), 400);
    expectStatus(await t.admin({ method: 'GET', url: '/admin/v1/companies/acme/erasures/nope' }), 404, 'not_found');
    expectStatus(await t.app.inject({ method: 'POST', url: '/admin/v1/companies/acme/erasures', payload: { user_id: ADA } }), 401);
    assert.equal((await t.admin({ method: 'GET', url: '/admin/v1/companies/acme/erasures' })).json().count, 1);
  });

  it('answers 0 removed for a company or person with no data', async () => {
    const job = expectStatus(await erase('nobody-here', { user_id: ADA }), 202);
    const done = await untilDone(t, `/admin/v1/companies/nobody-here/erasures/${job.id}`);
    assert.deepEqual(done.removed, { events: 0, record_tokens: 0 });
    assert.equal(done.batches, 0);
  });
});
