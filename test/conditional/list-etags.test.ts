import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { RecordsRepository } from '../../src/domain/records/records-repository.port.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, ingest, ingestOk } from '../events/event-fixtures.js';
import { createRecord, defineType, expectStatus, importRecords, LOAN_TYPE, VALID_LOAN } from '../records/fixtures.js';

const WEAK_TAG = /^W\/"[A-Za-z0-9_-]{43}"$/;
const LISTS = [
  '/v1/events',
  '/v1/events?type=step_completed&order_by=-created_at',
  // A substring that matches nothing, and one that matches: each reads its version with the dictionary.
  '/v1/events?flow_key__contains=no-such-flow',
  '/v1/events?flow_key__contains=o',
  '/v1/records',
  '/v1/records?view_id=open&limit=5',
];

describeEachDatabase('ETags of the events and records lists', (kind) => {
  let t: TestApp;
  /** Runs once when the records list next reads a page (after its version was read). */
  let beforePage: (() => Promise<void>) | undefined;
  const wrap = (repository: RecordsRepository): RecordsRepository => ({
    ...repository,
    async page(companyId, filter, query) {
      const step = beforePage;
      beforePage = undefined;
      await step?.();
      return repository.page(companyId, filter, query);
    },
  });

  before(async () => {
    t = await createTestApp(kind, { context: { wrapRecordsRepository: wrap } });
    for (const company of ['acme', 'globex']) {
      await defineType(t, company, 'loan');
      await createRecord(t, company, 'loan');
      await ingestOk(t, company, [anEvent({ id: `${company}-e1` })]);
    }
  });
  after(() => t.close());

  const list = (path: string, headers: Record<string, string> = {}, company = 'acme') => t.as(company, { method: 'GET', url: path, headers });
  const tags = async (company = 'acme') => {
    const found: Record<string, string> = {};
    for (const path of LISTS) {
      const response = await list(path, {}, company);
      assert.equal(response.statusCode, 200, `${path}: ${response.body}`);
      found[path] = response.headers.etag as string;
    }
    return found;
  };
  /** Every list's tag changes across `write`, and stays put otherwise. */
  const changedBy = async (what: string, write: () => Promise<unknown>) => {
    const before = await tags();
    assert.deepEqual(await tags(), before, `${what}: tags are stable without a write`);
    await write();
    const after = await tags();
    for (const path of LISTS) assert.notEqual(after[path], before[path], `${what} changes the tag of ${path}`);
  };
  const unchangedBy = async (what: string, write: () => Promise<unknown>) => {
    const before = await tags();
    await write();
    assert.deepEqual(await tags(), before, `${what} leaves every tag as it was`);
  };

  it('answers a weak ETag, the same for the same query however it is written, another for another query', async () => {
    const plain = await list('/v1/events?type=step_completed&limit=5');
    assert.match(plain.headers.etag as string, WEAK_TAG);
    assert.equal((await list('/v1/events?limit=5&type=step_completed')).headers.etag, plain.headers.etag, 'parameter order');
    assert.notEqual((await list('/v1/events?type=step_completed&limit=6')).headers.etag, plain.headers.etag);
    assert.equal((await list('/v1/events?user_key=u1')).headers.etag, (await list('/v1/events?user_id=u1')).headers.etag, 'an alias is the same query');
    assert.equal((await list('/v1/records?recordType=custom')).headers.etag, (await list('/v1/records?record_type=custom')).headers.etag);
    assert.notEqual((await list('/v1/records')).headers.etag, (await list('/v1/events')).headers.etag);
    assert.notEqual((await list('/v1/events', {}, 'globex')).headers.etag, (await list('/v1/events')).headers.etag, 'per company');
  });

  it('answers 304 with no body to If-None-Match naming the current tag, and the list again once it is stale', async () => {
    for (const path of LISTS) {
      const first = await list(path);
      const etag = first.headers.etag as string;
      for (const header of [etag, etag.slice(2), `"x", ${etag}`, '*']) {
        const again = await list(path, { 'if-none-match': header });
        assert.equal(again.statusCode, 304, `${path} ${header}`);
        assert.equal(again.body, '');
        assert.equal(again.headers.etag, etag);
      }
      const other = await list(path, { 'if-none-match': 'W/"not-this-one"' });
      assert.equal(other.statusCode, 200);
      assert.equal(other.body, first.body);
    }
    const etag = (await list('/v1/events')).headers.etag as string;
    await ingestOk(t, 'acme', [anEvent({ id: 'stale-maker' })]);
    const fresh = await list('/v1/events', { 'if-none-match': etag });
    assert.equal(fresh.statusCode, 200);
    assert.ok(fresh.json().results.some((event: { id: string }) => event.id === 'stale-maker'));
  });

  it('changes after every kind of write of the company', async () => {
    await changedBy('an ingest', () => ingestOk(t, 'acme', [anEvent({ id: 'w1' }), anEvent({ id: 'w2' })]));
    await changedBy('an ingest that only replaces an event', () => ingestOk(t, 'acme', [anEvent({ id: 'w1', text: 'again' })]));
    await changedBy('a record created', () => createRecord(t, 'acme', 'loan'));
    const record = await createRecord(t, 'acme', 'loan');
    await changedBy('a record patched', async () =>
      expectStatus(await t.as('acme', { method: 'PATCH', url: `/v1/records/${record.id}`, payload: { status: 'done' } }), 200),
    );
    await changedBy('records imported', () => importRecords(t, 'acme', [{ record_type: 'uccfiling', status: 'filed', instance: { n: 1 }, views: ['open'] }]));
    await changedBy('a record type defined', () => defineType(t, 'acme', 'memo', { name: 'Memo', fields: [], statuses: [], views: [] }));
    await changedBy('a record type replaced', () => defineType(t, 'acme', 'loan', { ...LOAN_TYPE, name: 'Loan v2' }));
    await changedBy('a record type deleted', async () =>
      expectStatus(await t.admin({ method: 'DELETE', url: '/admin/v1/companies/acme/record-types/memo' }), 204),
    );
  });

  it('stays put for requests that write nothing, and for writes of another company', async () => {
    const record = await createRecord(t, 'acme', 'loan');
    await unchangedBy('a refused ingest', async () => expectStatus(await ingest(t, 'acme', [anEvent({ id: 'ok' }), { id: 5 }]), 400));
    await unchangedBy('an empty ingest', async () => expectStatus(await ingest(t, 'acme', []), 200));
    await unchangedBy('a refused create', async () => expectStatus(await t.as('acme', { method: 'POST', url: '/v1/records/loan', payload: { nope: 1 } }), 400));
    await unchangedBy('a refused PATCH', async () =>
      expectStatus(await t.as('acme', { method: 'PATCH', url: `/v1/records/${record.id}`, payload: { f_amount: 'x' } }), 400),
    );
    await unchangedBy('a PATCH refused by If-Match', async () =>
      expectStatus(await t.as('acme', { method: 'PATCH', url: `/v1/records/${record.id}`, payload: { f_amount: 1 }, headers: { 'if-match': '"old"' } }), 412),
    );
    await unchangedBy('a delete of no type', async () =>
      expectStatus(await t.admin({ method: 'DELETE', url: '/admin/v1/companies/acme/record-types/none' }), 404),
    );
    await unchangedBy('writes of another company', async () => {
      await ingestOk(t, 'globex', [anEvent({ id: 'globex-e2' })]);
      await createRecord(t, 'globex', 'loan');
      await defineType(t, 'globex', 'memo', { name: 'Memo', fields: [], statuses: [], views: [] });
    });
  });

  it('names a state no newer than the answer: a write committed during the list makes the tag stale at once', async () => {
    let created: { id: string } | undefined;
    beforePage = async () => {
      created = await createRecord(t, 'acme', 'loan', VALID_LOAN);
    };
    const racing = await list('/v1/records?limit=100');
    assert.equal(racing.statusCode, 200);
    assert.ok(created);
    assert.ok(
      racing.json().results.some((record: { id: string }) => record.id === created!.id),
      'the answer already shows the record written meanwhile',
    );
    const next = await list('/v1/records?limit=100', { 'if-none-match': racing.headers.etag as string });
    assert.equal(next.statusCode, 200, 'the tag was read before the write, so it no longer matches');
    assert.notEqual(next.headers.etag, racing.headers.etag);
  });

  it('tags an events page read with its version in one statement as the version read first would', async () => {
    // A page nothing kept could answer is read with its version; the same state then answers 304 to its tag.
    for (const path of ['/v1/events?flow_key=one-read', '/v1/events?flow_key=one-read&limit=1&page=2', '/v1/events?flow_key=nothing-matches']) {
      await ingestOk(t, 'acme', [anEvent({ flow_key: 'one-read' }), anEvent({ flow_key: 'one-read' })]);
      const fresh = await list(path, { 'cache-control': 'no-cache' });
      assert.equal(fresh.statusCode, 200, fresh.body);
      const held = await list(path, { 'if-none-match': fresh.headers.etag as string });
      assert.equal(held.statusCode, 304, `${path}: the tag of the one-statement read names the current state`);
      const kept = await list(path);
      assert.equal(kept.headers.etag, fresh.headers.etag);
      assert.equal(kept.body, fresh.body);
      await ingestOk(t, 'acme', [anEvent({ flow_key: 'one-read' })]);
      const stale = await list(path, { 'if-none-match': fresh.headers.etag as string });
      assert.equal(stale.statusCode, 200, `${path}: a write makes the tag stale`);
      const again = await list(path, { 'cache-control': 'no-cache' });
      assert.equal(again.headers.etag, stale.headers.etag, `${path}: both reads name the same new state`);
      assert.equal(again.body, stale.body);
      if (path.endsWith('one-read')) assert.notEqual(again.body, fresh.body, `${path}: the kept page is not served after the write`);
    }
  });

  it('tags the events of a company that never wrote, and moves the tag at its first write', async () => {
    const company = 'initech-never-wrote';
    const empty = await list('/v1/events', { 'cache-control': 'no-cache' }, company);
    assert.equal(empty.statusCode, 200, empty.body);
    assert.deepEqual(JSON.parse(empty.body), { count: 0, results: [] });
    assert.match(empty.headers.etag as string, WEAK_TAG);
    assert.equal((await list('/v1/events', { 'if-none-match': empty.headers.etag as string }, company)).statusCode, 304);
    await ingestOk(t, company, [anEvent({ id: 'initech-e1' }), anEvent({ id: 'initech-e2' })]);
    const written = await list('/v1/events', { 'if-none-match': empty.headers.etag as string }, company);
    assert.equal(written.statusCode, 200, 'the first write makes the tag stale');
    assert.deepEqual(
      (JSON.parse(written.body) as { results: { id: string }[] }).results.map((event) => event.id),
      ['initech-e1', 'initech-e2'],
    );
  });

  it('answers 400 invalid_header to a malformed If-None-Match on a list', async () => {
    for (const path of ['/v1/events', '/v1/records']) {
      const response = expectStatus(await list(path, { 'if-none-match': 'W/nope' }), 400, 'invalid_header');
      assert.match(response.message, /If-None-Match/);
    }
  });
});
