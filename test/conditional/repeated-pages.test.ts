import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { gunzipSync } from 'node:zlib';
import { after, before, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { RecordsRepository } from '../../src/domain/records/records-repository.port.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, ingestOk } from '../events/event-fixtures.js';
import { createRecord, defineType, expectStatus, LOAN_TYPE } from '../records/fixtures.js';

const EVENTS = '/v1/events?flow_key=cached-flow&limit=50';
const RECORDS = '/v1/records?limit=50';
const NO_CACHE = { 'cache-control': 'no-cache' };

describeEachDatabase('the repeated-page cache of the events and records lists', (kind) => {
  /** Two replicas on one database, each with its own cache, and a third that keeps no page. */
  let a: TestApp;
  let b: TestApp;
  let uncached: TestApp;
  /** Pages the records repository of `a` was asked for: a cached answer asks for none. */
  let pagesRead = 0;
  /** Runs once when `a`'s records list next reads a page (after its version was read). */
  let beforePage: (() => Promise<void>) | undefined;
  const wrap = (repository: RecordsRepository): RecordsRepository => ({
    ...repository,
    async page(companyId, filter, query) {
      pagesRead++;
      const step = beforePage;
      beforePage = undefined;
      await step?.();
      return repository.page(companyId, filter, query);
    },
  });

  before(async () => {
    a = await createTestApp(kind, { context: { wrapRecordsRepository: wrap } });
    b = await createTestApp(kind, { database: a.database });
    uncached = await createTestApp(kind, { database: a.database, env: { WRS_PAGE_CACHE_BYTES: '0' } });
    for (const company of ['acme', 'globex', 'initech']) {
      await defineType(a, company, 'loan');
      await createRecord(a, company, 'loan');
      const more = Array.from({ length: 6 }, () => anEvent({ flow_key: 'cached-flow' }));
      await ingestOk(a, company, [anEvent({ id: `${company}-e1`, flow_key: 'cached-flow' }), anEvent({ id: `${company}-e2` }), ...more]);
    }
  });
  after(async () => {
    await uncached.close();
    await b.close();
    await a.close();
  });

  const get = (t: TestApp, url: string, company = 'acme', headers: Record<string, string> = {}) => t.as(company, { method: 'GET', url, headers });
  const ok = async (t: TestApp, url: string, company = 'acme', headers: Record<string, string> = {}) => {
    const response = await get(t, url, company, headers);
    assert.equal(response.statusCode, 200, response.body);
    return response;
  };
  const ids = async (t: TestApp, url: string, company = 'acme') => ((await ok(t, url, company)).json().results as { id: string }[]).map((item) => item.id);
  /** Pages `a`'s records list read while `work` ran. */
  const pagesReadBy = async (work: () => Promise<unknown>) => {
    const start = pagesRead;
    await work();
    return pagesRead - start;
  };
  const headersOf = (response: LightMyRequestResponse) => {
    const { date: _date, 'x-request-id': _id, ...rest } = response.headers;
    return rest;
  };

  it('serves a repeated page without reading its rows again', async () => {
    assert.equal(await pagesReadBy(() => ok(a, RECORDS)), 1);
    assert.equal(await pagesReadBy(() => ok(a, RECORDS)), 0, 'the same page again is a cache hit');
    assert.equal(await pagesReadBy(() => ok(a, RECORDS, 'acme', NO_CACHE)), 1, 'Cache-Control: no-cache reads the rows');
    const first = await ok(a, EVENTS, 'initech');
    // Changed behind the service's back, without a data version bump: only a page built afresh shows it.
    await a.ctx.database.db
      .updateTable('events')
      .set({ body: sql`replace(body, '"text":null', '"text":"changed unseen"')` })
      .where('id', '=', 'initech-e1')
      .execute();
    assert.equal((await ok(a, EVENTS, 'initech')).body, first.body, 'the repeated page comes from the cache');
    assert.match((await ok(a, EVENTS, 'initech', NO_CACHE)).body, /changed unseen/);
  });

  it('answers byte for byte as a service without the cache does, compressed or not', async () => {
    for (const url of [EVENTS, RECORDS, '/v1/events', '/v1/records?view_id=open']) {
      for (const encoding of [{}, { 'accept-encoding': 'gzip' }] as Record<string, string>[]) {
        await ok(a, url, 'acme', encoding);
        const hit = await ok(a, url, 'acme', encoding);
        const plain = await ok(uncached, url, 'acme', encoding);
        assert.deepEqual(headersOf(hit), headersOf(plain), `${url} ${JSON.stringify(encoding)}`);
        const body = (response: LightMyRequestResponse) =>
          response.headers['content-encoding'] === 'gzip' ? gunzipSync(response.rawPayload).toString() : response.body;
        assert.equal(body(hit), body(plain), url);
        assert.match(hit.headers['content-type'] as string, /^application\/json; charset=utf-8$/);
      }
    }
    assert.equal((await get(a, EVENTS, 'acme', { 'accept-encoding': 'gzip' })).headers['content-encoding'], 'gzip', 'the page is large enough to compress');
  });

  it('never hides an ingest, a record created or patched, or a record type replaced', async () => {
    assert.ok(!(await ids(a, EVENTS)).includes('acme-new'));
    await ingestOk(a, 'acme', [anEvent({ id: 'acme-new', flow_key: 'cached-flow' })]);
    assert.ok((await ids(a, EVENTS)).includes('acme-new'));

    const before = await ids(a, RECORDS);
    const created = await createRecord(a, 'acme', 'loan');
    assert.deepEqual(await ids(a, RECORDS), [...before, created.id]);

    const statusOf = async () => (await ok(a, RECORDS)).json().results.find((record: { id: string }) => record.id === created.id).status;
    assert.equal(await statusOf(), 'new');
    expectStatus(await a.as('acme', { method: 'PATCH', url: `/v1/records/${created.id}`, payload: { status: 'done' } }), 200);
    assert.equal(await statusOf(), 'done');

    // A record's views follow its type's: a replacement with other views changes every record of the type.
    const viewsOf = async () => (await ok(a, RECORDS)).json().results[0].views;
    assert.deepEqual(await viewsOf(), ['open', 'everything']);
    await defineType(a, 'acme', 'loan', { ...LOAN_TYPE, views: [{ id: 'all', name: 'All', statuses: [] }] });
    assert.deepEqual(await viewsOf(), ['all']);
  });

  it('keeps a company’s pages across another company’s writes, and never shows them to it', async () => {
    const acme = await ok(a, RECORDS);
    const acmeEvents = await ok(a, EVENTS);
    const globexRecord = await createRecord(a, 'globex', 'loan');
    await ingestOk(a, 'globex', [anEvent({ id: 'globex-new', flow_key: 'cached-flow' })]);
    assert.equal(await pagesReadBy(async () => assert.equal((await ok(a, RECORDS)).body, acme.body)), 0, 'still a hit');
    assert.equal((await ok(a, EVENTS)).body, acmeEvents.body);

    const globex = await ok(a, RECORDS, 'globex');
    assert.notEqual(globex.body, acme.body);
    assert.ok(globex.json().results.some((record: { id: string }) => record.id === globexRecord.id));
    const acmeIds = new Set(acme.json().results.map((record: { id: string }) => record.id));
    assert.ok(
      globex.json().results.every((record: { id: string }) => !acmeIds.has(record.id)),
      globex.body,
    );
    const globexEvents = (await ok(a, EVENTS, 'globex')).json().results as { id: string; company_id: string }[];
    assert.ok(globexEvents.some((event) => event.id === 'globex-new'));
    assert.ok(globexEvents.every((event) => event.company_id === 'globex'));
    assert.ok(!acmeEvents.body.includes('globex'));
  });

  it('still answers 304 to If-None-Match with the current tag, and the new page once a write made it stale', async () => {
    const writes = {
      [EVENTS]: () => ingestOk(a, 'acme', [anEvent({ flow_key: 'cached-flow' })]),
      [RECORDS]: () => createRecord(a, 'acme', 'loan'),
    };
    for (const [url, write] of Object.entries(writes)) {
      const first = await ok(a, url);
      const etag = first.headers.etag as string;
      const again = await get(a, url, 'acme', { 'if-none-match': etag });
      assert.equal(again.statusCode, 304, url);
      assert.equal(again.body, '');
      assert.equal(again.headers.etag, etag);
      await write();
      const stale = await ok(a, url, 'acme', { 'if-none-match': etag });
      assert.notEqual(stale.headers.etag, etag);
      assert.notEqual(stale.body, first.body, url);
    }
  });

  it('shows a write made through another replica at once: the version is read from the database', async () => {
    await ok(a, EVENTS);
    assert.equal(await pagesReadBy(() => ok(a, RECORDS)), 0, 'a has the records page cached');
    await ingestOk(b, 'acme', [anEvent({ id: 'from-b', flow_key: 'cached-flow' })]);
    assert.ok((await ids(a, EVENTS)).includes('from-b'));
    const created = await createRecord(b, 'acme', 'loan');
    assert.ok((await ids(a, RECORDS)).includes(created.id));
    expectStatus(await b.as('acme', { method: 'PATCH', url: `/v1/records/${created.id}`, payload: { status: 'in_review' } }), 200);
    const patched = (await ok(a, RECORDS)).json().results.find((record: { id: string }) => record.id === created.id);
    assert.equal(patched.status, 'in_review');
  });

  it('never serves a page built across a write to a request made after that write', async () => {
    await ok(a, RECORDS);
    let created: { id: string } | undefined;
    beforePage = async () => {
      created = await createRecord(b, 'acme', 'loan');
    };
    const racing = await ok(a, RECORDS, 'acme', NO_CACHE);
    assert.ok(
      racing.json().results.some((record: { id: string }) => record.id === created!.id),
      'built after the write',
    );
    let after: LightMyRequestResponse | undefined;
    assert.equal(await pagesReadBy(async () => (after = await ok(a, RECORDS))), 1, 'kept under the older version: not found');
    assert.notEqual(after!.headers.etag, racing.headers.etag);
    assert.ok(after!.json().results.some((record: { id: string }) => record.id === created!.id));
  });

  it('shows a write to every request made after it while many requests of the company are under way', async () => {
    for (let round = 0; round < 4; round++) {
      const before = (await ok(a, EVENTS)).headers.etag;
      // Under way while the write commits: they may share version reads among themselves.
      const during = Array.from({ length: 6 }, () => ok(a, EVENTS));
      const id = `concurrent-${round}`;
      await ingestOk(b, 'acme', [anEvent({ id, flow_key: 'cached-flow' })]);
      const after = await Promise.all(Array.from({ length: 6 }, () => ok(a, EVENTS)));
      await Promise.all(during);
      for (const response of after) {
        assert.notEqual(response.headers.etag, before, 'a tag of the version before the write');
        assert.ok(
          (response.json().results as { id: string }[]).some((event) => event.id === id),
          'the event written before the request',
        );
      }
      assert.equal(new Set(after.map((response) => response.headers.etag)).size, 1, 'one version after the write');
    }
  });

  it('answers a record token the refusal, never a cached page', async () => {
    const record = await createRecord(a, 'acme', 'loan');
    const token = expectStatus(await a.as('acme', { method: 'POST', url: `/v1/records/${record.id}/tokens` }), 201).token as string;
    for (const url of [EVENTS, RECORDS]) {
      await ok(a, url);
      const refused = await a.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      assert.equal(refused.statusCode, 403, refused.body);
    }
  });
});
