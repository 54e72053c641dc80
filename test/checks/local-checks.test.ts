import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { checkSeries, lobCheck } from './check-factory.js';
import { publishedCheck, publishedListedChecks } from './lob-published-checks.js';

type Row = Record<string, unknown> & { id: string; date_created: string; send_date: string; mail_type: string };

const COMPANY = 'acme';
const OTHER = 'globex';

/** The reference the service must agree with: filter, then sort with ties broken by id. */
function oracle(rows: Row[], keep: (row: Row) => boolean, field = 'date_created', direction: 'asc' | 'desc' = 'desc'): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  return rows
    .filter(keep)
    .sort((a, b) => sign * (String(a[field]).localeCompare(String(b[field])) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)))
    .map((row) => row.id);
}

const ids = (body: { results: { id: string }[] }) => body.results.map((check) => check.id);

describeEachDatabase('checks: embedded provider', (kind) => {
  let t: TestApp;
  let rows: Row[];

  const list = (query: string, company = COMPANY) => t.as(company, { method: 'GET', url: `/v1/checks${query}` });
  const add = (company: string, payload: unknown) => t.admin({ method: 'POST', url: `/admin/v1/companies/${company}/checks`, payload: payload as object });
  const pathOf = (url: string) => {
    assert.ok(url.startsWith('http://wrs.test/v1/checks?'), url);
    return url.slice('http://wrs.test'.length);
  };

  before(async () => {
    t = await createTestApp(kind);
    const series = checkSeries(30);
    const ties = ['chk_tiec', 'chk_tiea', 'chk_tieb'].map((id) =>
      lobCheck({ id, date_created: '2026-11-03T00:00:00.000Z', send_date: '2026-11-03T00:00:00.000Z' }),
    );
    const response = await add(COMPANY, [...series, ...ties]);
    assert.equal(response.statusCode, 201, response.body);
    assert.deepEqual(response.json(), { added: 33 });
    const all = await list('?limit=10000');
    rows = all.json().results;
    assert.equal(rows.length, 33);
    // Another company's checks, some with the same ids, must never show up for COMPANY.
    assert.equal((await add(OTHER, checkSeries(5, '2026-11-01T10:30:00.000Z'))).statusCode, 201);
  });
  after(() => t.close());

  describe('adding checks', () => {
    it('fills what Lob fills and keeps the check in Lob shape', async () => {
      const response = await add('filler', [lobCheck({ amount: 10, memo: undefined, mail_type: undefined })]);
      assert.equal(response.statusCode, 201);
      const [check] = (await list('', 'filler')).json().results;
      assert.match(check.id, /^chk_[0-9a-f]{16}$/);
      assert.equal(check.object, 'check');
      assert.equal(check.carrier, 'USPS');
      assert.equal(check.mail_type, 'usps_first_class');
      assert.equal(check.amount, 10);
      assert.equal(check.memo, null);
      assert.deepEqual(check.tracking_events, []);
      assert.match(check.date_created, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.equal(check.send_date, check.date_created);
      assert.equal(check.date_modified, check.date_created);
      assert.equal(check.to.name, 'HARRY ZHANG');
      assert.equal(check.bank_account, 'bank_8cad8df5354d33f');
    });

    it('accepts checks exactly as Lob returns them, of both mail types, and gives them back unchanged', async () => {
      const company = 'published';
      const published = [
        publishedCheck('usps_first_class', 'chk_534f10783683daa0'),
        publishedCheck('ups_next_day_air', 'chk_534f10783683daa1'),
        ...publishedListedChecks(),
      ];
      const response = await add(company, published);
      assert.equal(response.statusCode, 201, response.body);
      assert.deepEqual(response.json(), { added: published.length });
      const listed = (await list('?limit=10', company)).json();
      assert.equal(listed.count, published.length);
      for (const check of published) {
        const back = listed.results.find((result: { id: string }) => result.id === check.id);
        // Unchanged to the byte: the same fields, values and order.
        assert.equal(JSON.stringify(back), JSON.stringify(check), `${check.id} came back changed`);
      }
      const nextDayAir = (await list('?mail_type=ups_next_day_air', company)).json();
      assert.deepEqual(ids(nextDayAir), ['chk_534f10783683daa1']);
      // Lob's bare-date send_date is midnight UTC of that day: before date_created, so not scheduled.
      assert.ok(ids((await list('?scheduled=false&send_date=2019-08-08', company)).json()).includes('chk_0176bf6197100185'));
    });

    it('keeps dates as given, and files each check by the instant its dates name', async () => {
      const given = lobCheck({
        id: 'chk_dates1',
        date_created: '2026-11-01T12:00:00+02:00',
        send_date: '2026-11-05',
        expected_delivery_date: '2026-11-09',
      });
      const response = await add('dates', [given]);
      assert.equal(response.statusCode, 201, response.body);
      const [check] = (await list('', 'dates')).json().results;
      assert.equal(check.date_created, '2026-11-01T12:00:00+02:00');
      assert.equal(check.send_date, '2026-11-05');
      assert.equal(check.date_modified, '2026-11-01T10:00:00.000Z', 'filled in from date_created');
      assert.equal(check.expected_delivery_date, '2026-11-09');
      assert.equal((await list('?date_created=2026-11-01T10:00:00Z', 'dates')).json().count, 1);
      assert.equal((await list('?scheduled=true&send_date=2026-11-05', 'dates')).json().count, 1);
    });

    const invalid: [string, Record<string, unknown>, RegExp][] = [
      ['a zero amount', { amount: 0 }, /amount/],
      ['a negative amount', { amount: -5 }, /amount/],
      ['fractions of a cent', { amount: 10.005 }, /amount/],
      ['an amount of a million', { amount: 1_000_000 }, /amount/],
      ['no recipient', { to: undefined }, /to/],
      ['no sender', { from: undefined }, /from/],
      ['a bad ZIP code', { to: { ...(lobCheck().to as object), address_zip: '9410' } }, /address_zip/],
      ['a bad state', { from: { ...(lobCheck().from as object), address_state: 'California' } }, /address_state/],
      ['an address without name or company', { to: { ...(lobCheck().to as object), name: null, company: ' ' } }, /to needs a name or a company/],
      ['an unknown address field', { to: { ...(lobCheck().to as object), planet: 'Mars' } }, /planet/],
      ['no bank account', { bank_account: undefined }, /bank_account/],
      ['an impossible date', { date_created: '2026-02-30' }, /date_created/],
      ['a date without a zone', { send_date: '2026-11-01T10:00:00' }, /send_date/],
      ['a send date before the creation', { date_created: '2026-11-02T00:00:00Z', send_date: '2026-11-01T00:00:00Z' }, /send_date must not be earlier/],
      ['an unknown mail type', { mail_type: 'pigeon' }, /mail_type/],
      ['a letter mail type', { mail_type: 'usps_standard' }, /mail_type must be one of "usps_first_class", "ups_next_day_air"/],
      ['a send date the day before the creation', { date_created: '2026-11-02T10:00:00Z', send_date: '2026-11-01' }, /send_date must not be earlier/],
      ['a bad id', { id: 'ord_123' }, /id/],
      ['an unknown field', { colour: 'blue' }, /colour/],
      ['a memo over 40 characters', { memo: 'x'.repeat(41) }, /memo/],
      ['metadata with a quote', { metadata: { 'a"b': 'c' } }, /metadata/],
    ];
    for (const [what, overrides, reason] of invalid) {
      it(`refuses ${what}, and adds nothing from the batch`, async () => {
        const company = `invalid-${what.replace(/\W+/g, '-')}`;
        const response = await add(company, [lobCheck({ id: 'chk_good1' }), lobCheck(overrides)]);
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().code, 'invalid_body');
        assert.match(response.json().message, reason);
        assert.ok(
          response.json().errors.every((error: { index: number }) => error.index === 1),
          response.body,
        );
        assert.equal((await list('', company)).json().count, 0);
      });
    }

    it('lists every problem of every check at once, by index', async () => {
      const response = await add('many-problems', [
        lobCheck({ amount: 1.234 }),
        lobCheck(),
        lobCheck({ send_date: '2020-01-01T00:00:00Z', date_created: '2021-01-01T00:00:00Z', to: { ...(lobCheck().to as object), name: '', company: null } }),
      ]);
      assert.equal(response.statusCode, 400);
      const body = response.json();
      assert.equal(body.code, 'invalid_body');
      assert.deepEqual(
        body.errors.map((e: { index: number; field: string }) => `${e.index}:${e.field}`),
        ['0:amount', '2:send_date', '2:to'],
      );
    });

    it('reports shape, dates, repeated and stored ids together, one plain problem a field, and adds nothing', async () => {
      const company = 'all-at-once';
      assert.equal((await add(company, [lobCheck({ id: 'chk_stored' })])).statusCode, 201);
      const response = await add(company, [
        lobCheck({
          amount: 'ten',
          to: { ...(lobCheck().to as object), address_zip: '9410', planet: 'Mars' },
          mail_type: 'usps_standard',
          bank_account: 42,
          colour: 'blue',
          send_date: 'tomorrow',
        }),
        'a check',
        lobCheck({ id: 'chk_twice', date_created: '2026-02-30', metadata: { 'a"b': 'c' } }),
        lobCheck({ id: 'chk_twice', memo: 'x'.repeat(41) }),
        lobCheck({ id: 'chk_stored', bank_account: { id: 'bank_1', routing_number: '12' } }),
      ]);
      assert.equal(response.statusCode, 400, response.body);
      const body = response.json();
      assert.equal(body.code, 'invalid_body');
      const listed = body.errors.map((e: { index: number; field: string | null; message: string }) => `${e.index} ${e.field} ${e.message}`);
      assert.deepEqual(listed, [
        '0 colour is not a field Lob documents here',
        '0 amount must be a number above 0 and at most 999999.99',
        '0 to.planet is not a field Lob documents here',
        '0 to.address_zip must be a ZIP code, 12345 or 12345-1234',
        "0 bank_account must be a bank account id (bank_ followed by letters and digits) or Lob's bank account object",
        '0 mail_type must be one of "usps_first_class", "ups_next_day_air"',
        '0 send_date must be an ISO 8601 date (2026-11-01) or date-time with Z or an offset (2026-11-01T10:00:00Z)',
        "1 null must be a JSON object (a check in Lob's shape)",
        '2 date_created must be an ISO 8601 date (2026-11-01) or date-time with Z or an offset (2026-11-01T10:00:00Z)',
        '2 metadata.a"b metadata keys and values may not contain " or \\',
        '3 memo must be a string of at most 40 characters or null',
        '3 id repeats the id of check 2',
        '4 bank_account.routing_number must be a string of 9 characters',
        '4 id a check with id chk_stored already exists',
      ]);
      assert.equal(body.error_count, listed.length);
      assert.match(body.message, /^invalid checks, nothing was added: 14 problem\(s\): \[0\]\.colour /);
      assert.ok(!/must match|should|instancePath|anyOf/.test(response.body), 'no validator noise');
      assert.deepEqual(ids((await list('', company)).json()), ['chk_stored']);
    });

    it('lists at most 100 problems and counts the rest', async () => {
      const response = await add(
        'bounded',
        Array.from({ length: 150 }, () => lobCheck({ amount: 0 })),
      );
      assert.equal(response.statusCode, 400);
      const body = response.json();
      assert.equal(body.errors.length, 100);
      assert.equal(body.error_count, 150);
      assert.match(body.message, /\(and 50 more\)$/);
      assert.ok(response.body.length < 20_000, `${response.body.length} bytes`);
    });

    it('refuses an id repeated in the batch or already taken, and adds nothing', async () => {
      const repeated = await add('dupes', [lobCheck({ id: 'chk_same' }), lobCheck({ id: 'chk_same' })]);
      assert.equal(repeated.statusCode, 400);
      assert.match(repeated.json().message, /\[1\]\.id repeats the id of check 0/);
      assert.equal((await add('dupes', [lobCheck({ id: 'chk_same' })])).statusCode, 201);
      const taken = await add('dupes', [lobCheck({ id: 'chk_new' }), lobCheck({ id: 'chk_same' })]);
      assert.equal(taken.statusCode, 400);
      assert.match(taken.json().message, /already exists/);
      assert.deepEqual(ids((await list('', 'dupes')).json()), ['chk_same']);
    });

    it('lets two companies use the same check id', async () => {
      assert.equal((await add('twin-a', [lobCheck({ id: 'chk_twin' })])).statusCode, 201);
      assert.equal((await add('twin-b', [lobCheck({ id: 'chk_twin', amount: 99 })])).statusCode, 201);
      assert.equal((await list('', 'twin-a')).json().results[0].amount, 22.5);
      assert.equal((await list('', 'twin-b')).json().results[0].amount, 99);
    });

    it('refuses a body that is not an array, and needs the operator token', async () => {
      assert.equal((await add('x', { amount: 1 })).statusCode, 400);
      const anonymous = await t.app.inject({ method: 'POST', url: '/admin/v1/companies/x/checks', payload: [] });
      assert.equal(anonymous.statusCode, 401);
      const asUser = await t.as(COMPANY, { method: 'POST', url: '/admin/v1/companies/x/checks', payload: [] });
      assert.equal(asUser.statusCode, 401);
    });
  });

  describe('listing', () => {
    it('answers {count, results, next_url, previous_url}, newest first, 100 by default', async () => {
      const response = await list('');
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assert.deepEqual(Object.keys(body).sort(), ['count', 'next_url', 'previous_url', 'results']);
      assert.equal(body.count, 33);
      assert.deepEqual(
        ids(body),
        oracle(rows, () => true),
      );
      assert.equal(body.next_url, null);
      assert.equal(body.previous_url, null);
      assert.equal(body.results[0].object, 'check');
    });

    it('never shows another company its checks', async () => {
      const other = (await list('?limit=10000', OTHER)).json();
      assert.equal(other.count, 5);
      assert.ok(other.results.every((check: { date_created: string }) => check.date_created.includes(':30:00')));
      assert.equal((await list('', 'nobody')).json().count, 0);
    });

    const filters: [string, (row: Row) => boolean][] = [
      ['date_created=2026-11-02', (r) => r.date_created >= '2026-11-02T00:00:00.000Z' && r.date_created < '2026-11-03T00:00:00.000Z'],
      ['date_created=2026-11-01T05:00:00Z', (r) => r.date_created === '2026-11-01T05:00:00.000Z'],
      ['date_created=2026-11-01T07:00:00%2B02:00', (r) => r.date_created === '2026-11-01T05:00:00.000Z'],
      ['date_created__gt=2026-11-01T20:00:00Z', (r) => r.date_created > '2026-11-01T20:00:00.000Z'],
      ['date_created__gte=2026-11-01T20:00:00Z', (r) => r.date_created >= '2026-11-01T20:00:00.000Z'],
      ['date_created__lt=2026-11-01T03:00:00Z', (r) => r.date_created < '2026-11-01T03:00:00.000Z'],
      ['date_created__lte=2026-11-01T03:00:00Z', (r) => r.date_created <= '2026-11-01T03:00:00.000Z'],
      ['date_created__lte=2026-11-02', (r) => r.date_created <= '2026-11-02T00:00:00.000Z'],
      [
        'date_created__gte=2026-11-01T04:00:00Z&date_created__lt=2026-11-01T09:00:00Z',
        (r) => r.date_created >= '2026-11-01T04:00:00.000Z' && r.date_created < '2026-11-01T09:00:00.000Z',
      ],
      [
        'date_created=2026-11-01&date_created__gt=2026-11-01T20:00:00Z',
        (r) => r.date_created > '2026-11-01T20:00:00.000Z' && r.date_created < '2026-11-02T00:00:00.000Z',
      ],
      ['send_date=2026-11-02', (r) => r.send_date.startsWith('2026-11-02')],
      ['send_date__gt=2026-11-02T10:00:00Z', (r) => r.send_date > '2026-11-02T10:00:00.000Z'],
      ['send_date__gte=2026-11-02T10:00:00Z', (r) => r.send_date >= '2026-11-02T10:00:00.000Z'],
      ['send_date__lt=2026-11-01T06:00:00Z', (r) => r.send_date < '2026-11-01T06:00:00.000Z'],
      ['send_date__lte=2026-11-01T05:00:00Z', (r) => r.send_date <= '2026-11-01T05:00:00.000Z'],
      ['scheduled=true', (r) => r.send_date > r.date_created],
      ['scheduled=false', (r) => r.send_date === r.date_created],
      ['mail_type=ups_next_day_air', (r) => r.mail_type === 'ups_next_day_air'],
      ['mail_type=usps_first_class', (r) => r.mail_type === 'usps_first_class'],
      ['mail_type=usps', () => false],
      [
        'scheduled=true&mail_type=ups_next_day_air&date_created=2026-11-01',
        (r) => r.send_date > r.date_created && r.mail_type === 'ups_next_day_air' && r.date_created.startsWith('2026-11-01'),
      ],
      ['date_created__gt=2026-12-01', () => false],
    ];
    for (const [query, keep] of filters) {
      it(`filters ${query}`, async () => {
        const response = await list(`?limit=10000&${query}`);
        assert.equal(response.statusCode, 200, response.body);
        const expected = oracle(rows, keep);
        assert.deepEqual(ids(response.json()), expected);
        assert.ok(expected.length > 0 || query.includes('usps&') || query.endsWith('usps') || query.includes('2026-12'));
      });
    }

    const sorts: [string, string, 'asc' | 'desc'][] = [
      ['sort_by=date_created', 'date_created', 'asc'],
      ['sort_by=-date_created', 'date_created', 'desc'],
      ['sort_by=send_date', 'send_date', 'asc'],
      ['sort_by=-send_date', 'send_date', 'desc'],
      ['sort_by[date_created]=asc', 'date_created', 'asc'],
      ['sort_by%5Bsend_date%5D=desc', 'send_date', 'desc'],
      [`sort_by=${encodeURIComponent('{"send_date":"asc"}')}`, 'send_date', 'asc'],
      [`sort_by=${encodeURIComponent('{"date_created":"desc"}')}`, 'date_created', 'desc'],
    ];
    for (const [query, field, direction] of sorts) {
      it(`sorts ${decodeURIComponent(query)}, ties by id in the same direction`, async () => {
        const response = await list(`?limit=10000&${query}`);
        assert.equal(response.statusCode, 200, response.body);
        assert.deepEqual(
          ids(response.json()),
          oracle(rows, () => true, field, direction),
        );
      });
    }

    const pagings: [string, string, (row: Row) => boolean, string, 'asc' | 'desc'][] = [
      ['default order, 4 a page', 'limit=4', () => true, 'date_created', 'desc'],
      ['ascending, 5 a page, through the ties', 'limit=5&sort_by=date_created', () => true, 'date_created', 'asc'],
      ['by send date, 7 a page', 'limit=7&sort_by[send_date]=desc', () => true, 'send_date', 'desc'],
      [
        'filtered, 3 a page',
        'limit=3&scheduled=false&date_created=2026-11-01',
        (r) => r.send_date === r.date_created && r.date_created.startsWith('2026-11-01'),
        'date_created',
        'desc',
      ],
      ['one a page', 'limit=1&mail_type=ups_next_day_air', (r) => r.mail_type === 'ups_next_day_air', 'date_created', 'desc'],
    ];
    for (const [what, query, keep, field, direction] of pagings) {
      it(`pages forwards and back with cursors: ${what}`, async () => {
        const expected = oracle(rows, keep, field, direction);
        const limit = Number(/limit=(\d+)/.exec(query)![1]);
        const seen: string[] = [];
        const pages: string[][] = [];
        let url: string | null = `/v1/checks?${query}`;
        let last: { previous_url: string | null } | undefined;
        let first = true;
        while (url) {
          const response = await t.as(COMPANY, { method: 'GET', url });
          assert.equal(response.statusCode, 200, response.body);
          const body = response.json();
          if (first) assert.equal(body.previous_url, null);
          else assert.notEqual(body.previous_url, null);
          first = false;
          assert.ok(body.count <= limit);
          pages.push(ids(body));
          seen.push(...ids(body));
          last = body;
          url = body.next_url ? pathOf(body.next_url) : null;
          if (url) {
            // The next page keeps the request's filters and sort.
            for (const [name, value] of new URLSearchParams(query)) assert.equal(new URL(body.next_url, 'http://x').searchParams.get(name), value);
          }
        }
        assert.deepEqual(seen, expected);
        assert.equal(pages.length, Math.max(1, Math.ceil(expected.length / limit)));

        // And back again from the last page, page by page.
        const back: string[][] = [];
        let previous = last?.previous_url ? pathOf(last.previous_url) : null;
        while (previous) {
          const body = (await t.as(COMPANY, { method: 'GET', url: previous })).json();
          back.unshift(ids(body));
          assert.notEqual(body.next_url, null);
          previous = body.previous_url ? pathOf(body.previous_url) : null;
        }
        assert.deepEqual(back, pages.slice(0, -1));
      });
    }

    it('keeps pages stable when newer checks arrive meanwhile', async () => {
      const company = 'stable';
      assert.equal((await add(company, checkSeries(6, '2026-01-01T00:00:00.000Z'))).statusCode, 201);
      const firstPage = (await list('?limit=3', company)).json();
      assert.deepEqual(ids(firstPage), ['chk_s0005', 'chk_s0004', 'chk_s0003']);
      assert.equal((await add(company, [lobCheck({ id: 'chk_newest', date_created: '2026-06-01T00:00:00Z' })])).statusCode, 201);
      const second = (await t.as(company, { method: 'GET', url: pathOf(firstPage.next_url) })).json();
      assert.deepEqual(ids(second), ['chk_s0002', 'chk_s0001', 'chk_s0000']);
      const backToFirst = (await t.as(company, { method: 'GET', url: pathOf(second.previous_url) })).json();
      assert.deepEqual(ids(backToFirst), ['chk_s0005', 'chk_s0004', 'chk_s0003']);
      assert.notEqual(backToFirst.previous_url, null, 'the newer check now lies before this page');
    });

    it('honours limit 1..10000 and refuses anything else', async () => {
      assert.equal((await list('?limit=2')).json().count, 2);
      assert.equal((await list('?limit=10000')).json().count, 33);
      for (const limit of ['0', '10001', 'abc', '2.5', '-1', '']) {
        const response = await list(`?limit=${limit}`);
        assert.equal(response.statusCode, 400, `limit=${limit}`);
        assert.equal(response.json().code, 'invalid_query');
        assert.deepEqual(response.json().invalid_params, ['limit']);
      }
    });
  });

  describe('refusing bad queries with 400 invalid_query naming the parameters', () => {
    const bad: [string, string[]][] = [
      ['?page=2', ['page']],
      ['?order_by=date_created', ['order_by']],
      ['?date_created__contains=2026', ['date_created__contains']],
      ['?date_created[gt]=2026-11-01', ['date_created[gt]']],
      ['?date_created=yesterday', ['date_created']],
      ['?date_created=2026-13-01', ['date_created']],
      ['?send_date__gte=2026-11-01T10:00', ['send_date__gte']],
      ['?date_created__lt=nope&send_date=2026-02-30', ['date_created__lt', 'send_date']],
      ['?scheduled=maybe', ['scheduled']],
      ['?scheduled=', ['scheduled']],
      ['?mail_type=a&mail_type=b', ['mail_type']],
      ['?sort_by=amount', ['sort_by']],
      ['?sort_by=%2Bdate_created', ['sort_by']],
      ['?sort_by=date_created&sort_by[send_date]=asc', ['sort_by', 'sort_by[send_date]']],
      ['?sort_by[date_created]=asc&sort_by[send_date]=asc', ['sort_by[date_created]', 'sort_by[send_date]']],
      ['?sort_by[date_created]=up', ['sort_by[date_created]']],
      ['?sort_by[amount]=asc', ['sort_by[amount]']],
      [`?sort_by=${encodeURIComponent('{"date_created":"asc","send_date":"asc"}')}`, ['sort_by']],
      [`?sort_by=${encodeURIComponent('{"date_created":"up"}')}`, ['sort_by']],
      [`?sort_by=${encodeURIComponent('{"amount":"asc"}')}`, ['sort_by']],
      [`?sort_by=${encodeURIComponent('{"date_created"')}`, ['sort_by']],
      ['?after=abc', ['after']],
      ['?before=abc.def', ['before']],
      ['?after=a&before=b', ['after', 'before']],
    ];
    for (const [query, params] of bad) {
      it(decodeURIComponent(query), async () => {
        const response = await list(query);
        assert.equal(response.statusCode, 400, response.body);
        const body = response.json();
        assert.equal(body.code, 'invalid_query');
        assert.deepEqual([...body.invalid_params].sort(), [...params].sort());
        for (const param of params) assert.ok(body.message.includes(param.replace(/(__|\[).*$/, '')), body.message);
      });
    }

    it('refuses a cursor that was edited, used with another sort, or by another company', async () => {
      const page = (await list('?limit=2')).json();
      const cursor = new URL(page.next_url).searchParams.get('after')!;
      const [payload, mac] = cursor.split('.');
      const edited = Buffer.from(
        Buffer.from(payload!, 'base64url')
          .toString()
          .replace(/chk_\w+/, 'chk_s0000'),
      ).toString('base64url');
      for (const [query, company] of [
        [`?limit=2&after=${edited}.${mac}`, COMPANY],
        [`?limit=2&before=${cursor}`, COMPANY],
        [`?limit=2&sort_by=send_date&after=${cursor}`, COMPANY],
        [`?limit=2&after=${cursor}`, OTHER],
      ] as const) {
        const response = await list(query, company);
        assert.equal(response.statusCode, 400, `${query} as ${company}: ${response.body}`);
        assert.equal(response.json().code, 'invalid_query');
      }
      assert.equal((await list(`?limit=2&after=${cursor}`)).statusCode, 200);
    });

    it('needs a company bearer token', async () => {
      const anonymous = await t.app.inject({ method: 'GET', url: '/v1/checks' });
      assert.equal(anonymous.statusCode, 401);
    });
  });
});
