import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { defineType, expectStatus, importRecords, LOAN_TYPE, pathOf } from './fixtures.js';

interface Listed {
  id: string;
  record_type: string;
  status: string;
  created_at: string;
  updated_at: string;
  views: string[];
}
interface ListAnswer {
  count: number;
  next: string | null;
  prev: string | null;
  results: Listed[];
}

const BASE_TIME = Date.parse('2026-01-01T00:00:00.000Z');
const STATUSES = ['new', 'in_review', 'done'];

/** 300 records: custom loans and UCC filings, three at a time sharing a created_at, ids not in time order. */
function workboard(count = 300) {
  return Array.from({ length: count }, (_, i) => {
    const createdAt = new Date(BASE_TIME + Math.floor(i / 3) * 60_000).toISOString();
    const updatedAt = new Date(BASE_TIME + 86_400_000 + ((i * 37) % count) * 1000).toISOString();
    // Ids whose order differs from the creation order, so ties really are broken by id.
    const id = `rec-${String((i * 7919) % 1000).padStart(3, '0')}-${i}`;
    if (i % 2 === 0) {
      const status = STATUSES[i % 3]!;
      return {
        id,
        record_type: 'custom',
        uid: 'loan',
        status,
        fields: { Amount: i, Borrower: `b${i}` },
        created_at: createdAt,
        updated_at: updatedAt,
      };
    }
    return { id, record_type: 'uccfiling', status: 'filed', views: i % 4 === 1 ? ['ucc-active'] : [], created_at: createdAt, updated_at: updatedAt };
  });
}

const byKey = (a: { created_at: string; id: string }, b: { created_at: string; id: string }) =>
  a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

describeEachDatabase('records: list', (kind) => {
  let t: TestApp;
  const records = workboard();
  const sorted = [...records].sort(byKey);

  before(async () => {
    t = await createTestApp(kind);
    await defineType(t, 'acme', 'loan', LOAN_TYPE);
    // Imported in a shuffled order, so that insertion order cannot pass for list order.
    await importRecords(t, 'acme', [...records].reverse());
    await importRecords(t, 'globex', [{ id: 'globex-1', record_type: 'uccfiling', status: 'filed' }]);
  });
  after(() => t.close());

  const list = async (query: string, company = 'acme'): Promise<ListAnswer> =>
    expectStatus(await t.as(company, { method: 'GET', url: `/v1/records${query}` }), 200);
  const follow = async (link: string): Promise<ListAnswer> => expectStatus(await t.as('acme', { method: 'GET', url: pathOf(link) }), 200);

  /** Walks next to the end, then prev back to the start; both walks must see every match once, in order. */
  async function walk(query: string, expected: Array<{ id: string }>, pageSize: number) {
    const separator = query ? '&' : '?';
    let page = await list(`${query}${separator}limit=${pageSize}`);
    assert.equal(page.prev, null, 'nothing lies before the first page');
    const forward: string[][] = [page.results.map((r) => r.id)];
    while (page.next) {
      const url = new URL(page.next);
      assert.equal(url.origin, 'http://wrs.test');
      assert.equal(url.searchParams.get('limit'), String(pageSize));
      page = await follow(page.next);
      assert.ok(page.count > 0, 'a next link never leads to an empty page');
      assert.ok(page.count <= pageSize);
      assert.equal(page.count, page.results.length);
      forward.push(page.results.map((r) => r.id));
    }
    assert.deepEqual(
      forward.flat(),
      expected.map((r) => r.id),
      'forward walk: no duplicate, no gap, in order',
    );

    const backward: string[][] = [page.results.map((r) => r.id)];
    while (page.prev) {
      page = await follow(page.prev);
      backward.unshift(page.results.map((r) => r.id));
    }
    assert.deepEqual(
      backward.flat(),
      expected.map((r) => r.id),
      'backward walk: no duplicate, no gap, in order',
    );
    assert.deepEqual(backward, forward, 'prev pages are the same pages as next pages');
    return forward.length;
  }

  it('lists in created_at then id order, 100 a page by default', async () => {
    const page = await list('');
    assert.equal(page.count, 100);
    assert.deepEqual(
      page.results.map((r) => r.id),
      sorted.slice(0, 100).map((r) => r.id),
    );
    assert.equal(page.prev, null);
    assert.equal(page.next, `http://wrs.test/v1/records?next=${sorted[99]!.id}`);
    assert.ok(page.results.every((r) => r.id !== 'globex-1'));
  });

  it('walks next to the end and prev back to the start over every record', async () => {
    assert.equal(await walk('', sorted, 7), Math.ceil(300 / 7));
    await walk('', sorted, 100);
    await walk('', sorted, 1);
  });

  it('walks the pages of a filtered list the same way, carrying the filters', async () => {
    const loans = sorted.filter((r) => r.record_type === 'custom');
    await walk('?record_type=custom', loans, 9);
    await walk(
      '?recordType=uccfiling',
      sorted.filter((r) => r.record_type === 'uccfiling'),
      11,
    );
    const open = loans.filter((r) => r.status === 'new' || r.status === 'in_review');
    await walk('?view_id=open', open, 13);
    const after = sorted[150]!.created_at;
    await walk(
      `?created_after=${encodeURIComponent(after)}`,
      sorted.filter((r) => r.created_at > after),
      17,
    );
    await walk(
      `?viewId=closed&record_type=custom&updated_before=${encodeURIComponent('2026-01-02T00:02:00.000Z')}`,
      loans.filter((r) => r.status === 'done' && r.updated_at < '2026-01-02T00:02:00.000Z'),
      4,
    );
    const page = await list('?viewId=open&createdAfter=2026-01-01&limit=5');
    const next = new URL(page.next!);
    assert.deepEqual(
      [...next.searchParams.entries()],
      [
        ['view_id', 'open'],
        ['created_after', '2026-01-01'],
        ['limit', '5'],
        ['next', page.results[4]!.id],
      ],
    );
  });

  it('orders by order_by (created_at or updated_at, - for descending, ties by id the same way) and walks it both ways', async () => {
    const inOrder = (column: 'created_at' | 'updated_at', descending: boolean) =>
      [...records].sort((a, b) => {
        const compared = a[column] < b[column] ? -1 : a[column] > b[column] ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
        return descending ? -compared : compared;
      });
    assert.deepEqual(inOrder('created_at', false), sorted);
    await walk('?order_by=created_at', sorted, 23);
    await walk('?order_by=-created_at', inOrder('created_at', true), 23);
    await walk('?order_by=updated_at', inOrder('updated_at', false), 29);
    const newestChange = inOrder('updated_at', true);
    await walk('?order_by=-updated_at', newestChange, 29);
    await walk(
      '?order_by=-updated_at&record_type=custom',
      newestChange.filter((r) => r.record_type === 'custom'),
      8,
    );

    const page = await list('?order_by=-updated_at&limit=5');
    assert.deepEqual(
      page.results.map((r) => r.id),
      newestChange.slice(0, 5).map((r) => r.id),
    );
    assert.equal(page.next, `http://wrs.test/v1/records?limit=5&order_by=-updated_at&next=${newestChange[4]!.id}`);
    const back = await list(`?order_by=-updated_at&prev=${newestChange[20]!.id}&limit=5`);
    assert.deepEqual(
      back.results.map((r) => r.id),
      newestChange.slice(15, 20).map((r) => r.id),
      'prev gives the page just before the cursor, in the list order',
    );
  });

  it('refuses an order_by it does not know, naming what it takes', async () => {
    for (const value of ['status', 'updated', '+created_at', '-id']) {
      const response = await t.as('acme', { method: 'GET', url: `/v1/records?order_by=${encodeURIComponent(value)}` });
      const body = expectStatus(response, 400, 'invalid_query') as { message: string };
      assert.match(body.message, /order_by/);
      assert.match(body.message, /created_at, -created_at, updated_at, -updated_at/);
    }
  });

  it('pages back with prev=<id> to the page just before that record, in ascending order', async () => {
    const anchor = sorted[50]!;
    const page = await list(`?prev=${anchor.id}&limit=10`);
    assert.deepEqual(
      page.results.map((r) => r.id),
      sorted.slice(40, 50).map((r) => r.id),
    );
    assert.equal(page.next, `http://wrs.test/v1/records?limit=10&next=${sorted[49]!.id}`);
    assert.equal(page.prev, `http://wrs.test/v1/records?limit=10&prev=${sorted[40]!.id}`);
    const start = await list(`?prev=${sorted[5]!.id}&limit=10`);
    assert.deepEqual(
      start.results.map((r) => r.id),
      sorted.slice(0, 5).map((r) => r.id),
    );
    assert.equal(start.prev, null);
  });

  it('answers an empty page at either end with a way back', async () => {
    const last = sorted[sorted.length - 1]!;
    const past = await list(`?next=${last.id}&limit=10`);
    assert.equal(past.count, 0);
    assert.equal(past.next, null);
    const back = await follow(past.prev!);
    assert.deepEqual(
      back.results.map((r) => r.id),
      sorted.slice(-10).map((r) => r.id),
    );

    const before = await list(`?prev=${sorted[0]!.id}&limit=10`);
    assert.equal(before.count, 0);
    assert.equal(before.prev, null);
    assert.equal(before.next, 'http://wrs.test/v1/records?limit=10');

    // A cursor that is not itself in the filtered list still marks a position.
    const ucc = sorted.filter((r) => r.record_type === 'uccfiling');
    const lastLoan = [...sorted].reverse().find((r) => r.record_type === 'custom')!;
    const afterLastLoan = sorted.filter((r) => byKey(r, lastLoan) > 0 && r.record_type === 'custom');
    assert.equal(afterLastLoan.length, 0);
    const empty = await list(`?record_type=custom&next=${lastLoan.id}&limit=3`);
    assert.equal(empty.count, 0);
    const lastLoans = await follow(empty.prev!);
    assert.deepEqual(
      lastLoans.results.map((r) => r.id),
      sorted
        .filter((r) => r.record_type === 'custom')
        .slice(-3)
        .map((r) => r.id),
    );
    const fromUcc = await list(`?record_type=custom&next=${ucc[0]!.id}&limit=2`);
    assert.deepEqual(
      fromUcc.results.map((r) => r.id),
      sorted
        .filter((r) => r.record_type === 'custom' && byKey(r, ucc[0]!) > 0)
        .slice(0, 2)
        .map((r) => r.id),
    );
  });

  it('filters by record_type and view_id, and their aliases', async () => {
    for (const query of ['?record_type=uccfiling', '?recordType=uccfiling', '?record_type=uccfiling&recordType=uccfiling']) {
      const page = await list(`${query}&limit=100`);
      assert.equal(page.count, 100, query);
      assert.ok(
        page.results.every((r) => r.record_type === 'uccfiling'),
        query,
      );
    }
    assert.equal((await list('?record_type=infoleaseasset')).count, 0);
    for (const query of ['?view_id=closed', '?viewId=closed', '?view_id=closed&viewId=closed']) {
      const page = await list(query);
      const expected = sorted.filter((r) => r.record_type === 'custom' && r.status === 'done');
      assert.deepEqual(
        page.results.map((r) => r.id),
        expected.map((r) => r.id),
        query,
      );
      assert.ok(page.results.every((r) => r.views.includes('closed')));
    }
    const everything = await list('?view_id=everything&limit=100');
    assert.ok(
      everything.results.every((r) => r.record_type === 'custom'),
      'a view without statuses holds every record of its type',
    );
    assert.equal(everything.count, 100);
    const imported = await list('?view_id=ucc-active');
    assert.deepEqual(
      imported.results.map((r) => r.id),
      sorted.filter((r) => 'views' in r && (r.views as string[]).includes('ucc-active')).map((r) => r.id),
    );
    assert.equal((await list('?view_id=no-such-view')).count, 0);
  });

  it('applies each timestamp filter strictly, under either name', async () => {
    const pivot = sorted[120]!; // shares its created_at with two other records
    const created = pivot.created_at;
    const cases: Array<[string, (r: (typeof sorted)[number]) => boolean]> = [
      ['created_after', (r) => r.created_at > created],
      ['createdAfter', (r) => r.created_at > created],
      ['created_before', (r) => r.created_at < created],
      ['createdBefore', (r) => r.created_at < created],
    ];
    for (const [name, keep] of cases) {
      const expected = sorted.filter(keep);
      const seen: string[] = [];
      let page = await list(`?${name}=${encodeURIComponent(created)}`);
      seen.push(...page.results.map((r) => r.id));
      while (page.next) {
        page = await follow(page.next);
        seen.push(...page.results.map((r) => r.id));
      }
      assert.deepEqual(
        seen,
        expected.map((r) => r.id),
        name,
      );
      assert.ok(!seen.includes(pivot.id), `${name} is strict`);
    }
    const updated = sorted[10]!.updated_at;
    for (const [name, keep] of [
      ['updated_after', (r: Listed) => r.updated_at > updated],
      ['updatedAfter', (r: Listed) => r.updated_at > updated],
      ['updated_before', (r: Listed) => r.updated_at < updated],
      ['updatedBefore', (r: Listed) => r.updated_at < updated],
    ] as const) {
      const page = await list(`?${name}=${encodeURIComponent(updated)}&record_type=custom`);
      const expected = sorted.filter((r) => r.record_type === 'custom' && keep(r as Listed));
      assert.deepEqual(
        page.results.map((r) => r.id),
        expected.slice(0, 100).map((r) => r.id),
        name,
      );
      assert.ok(page.results.every((r) => r.id !== sorted[10]!.id));
    }
  });

  it('reads a bare date as midnight UTC and honours offsets', async () => {
    assert.equal((await list('?created_before=2026-01-01')).count, 0, 'nothing before midnight: the first records are at midnight exactly');
    const atMidnight = await list('?created_after=2025-12-31T23:59:59.999Z');
    assert.equal(atMidnight.results[0]!.created_at, '2026-01-01T00:00:00.000Z');
    const offset = await list(`?created_after=${encodeURIComponent('2026-01-01T01:00:00+01:00')}&limit=3`);
    assert.ok(offset.results.every((r) => r.created_at > '2026-01-01T00:00:00.000Z'));
    assert.equal(offset.results[0]!.created_at, '2026-01-01T00:01:00.000Z');
    const link = new URL(offset.next!);
    assert.equal(link.searchParams.get('created_after'), '2026-01-01T01:00:00+01:00');
  });

  const badQueries: Array<[string, string[]]> = [
    ['?created_after=2026-01-01&updated_before=2026-02-01', ['created_after', 'updated_before']],
    ['?created_after=2026-01-01&createdAfter=2026-01-01', ['created_after', 'createdAfter']],
    ['?createdBefore=2026-01-01&updatedAfter=2026-01-01', ['createdBefore', 'updatedAfter']],
    ['?created_after=2026-02-30', ['created_after']],
    ['?updatedAfter=yesterday', ['updatedAfter']],
    ['?created_before=2026-01-01T25:00:00Z', ['created_before']],
    ['?updated_before=2026-01-01T10:00:00', ['updated_before']],
    ['?next=rec-000-0&prev=rec-000-0', ['next', 'prev']],
    ['?next=no-such-record', ['next']],
    ['?prev=no-such-record', ['prev']],
    ['?next=globex-1', ['next']],
    ['?record_type=custom&recordType=uccfiling', ['record_type', 'recordType']],
    ['?view_id=open&viewId=closed', ['view_id', 'viewId']],
    ['?limit=0', ['limit']],
    ['?limit=101', ['limit']],
    ['?limit=2.5', ['limit']],
    ['?limit=ten', ['limit']],
    ['?record_type=', ['record_type']],
    ['?record_type=a&record_type=b', ['record_type']],
    ['?status=new', ['status']],
    ['?created_at__gt=2026-01-01', ['created_at__gt']],
    ['?page=2', ['page']],
  ];
  for (const [query, params] of badQueries) {
    it(`refuses ${query} naming ${params.join(', ')}`, async () => {
      const response = await t.as('acme', { method: 'GET', url: `/v1/records${query}` });
      const body = expectStatus(response, 400, 'invalid_query');
      assert.deepEqual(body.invalid_params, params);
    });
  }

  it('never shows one company the records of another', async () => {
    const globex = await list('', 'globex');
    assert.deepEqual(
      globex.results.map((r) => r.id),
      ['globex-1'],
    );
    assert.equal((await list('?record_type=custom', 'globex')).count, 0);
    assert.equal((await list('?view_id=open', 'globex')).count, 0);
    const cursor = await t.as('globex', { method: 'GET', url: `/v1/records?next=${sorted[0]!.id}` });
    expectStatus(cursor, 400, 'invalid_query');
  });

  it('requires a bearer token', async () => {
    expectStatus(await t.app.inject({ method: 'GET', url: '/v1/records' }), 401, 'unauthorized');
  });
});

describe('records: list links without WRS_PUBLIC_URL', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite', { env: { WRS_PUBLIC_URL: '' } });
    await importRecords(t, 'acme', [
      { id: 'a', record_type: 'uccfiling', status: 'filed', created_at: '2026-01-01T00:00:00.000Z' },
      { id: 'b', record_type: 'uccfiling', status: 'filed', created_at: '2026-01-01T00:00:01.000Z' },
    ]);
  });
  after(() => t.close());

  it('builds absolute links from the request host', async () => {
    const response = await t.as('acme', { method: 'GET', url: '/v1/records?limit=1', headers: { host: 'records.example.com:8443' } });
    const page = expectStatus(response, 200);
    assert.equal(page.next, 'http://records.example.com:8443/v1/records?limit=1&next=a');
  });
});
