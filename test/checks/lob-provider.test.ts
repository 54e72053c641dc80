import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { lobCheck, publishedCheckSeries } from './check-factory.js';
import { startFakeLob, type FakeCheck, type FakeLob } from './fake-lob-server.js';
import { publishedCheck, publishedListedChecks } from './lob-published-checks.js';

const KEY = {
  acme: 'test_acme_0dc8d51e0acffcb1880e',
  globex: 'test_globex_77c1a0b2c3d4e5f6a7',
  global: 'test_global_9f8e7d6c5b4a39281',
  slow: 'test_slow_aaaaaaaaaaaaaaaaaaaa',
  limitedTwice: 'test_limited_twice_bbbbbbbbbb',
  limitedLong: 'test_limited_long_cccccccccccc',
  limitedAlways: 'test_limited_always_dddddddddd',
  failingTwice: 'test_failing_twice_eeeeeeeeee',
  failing: 'test_failing_ffffffffffffffffff',
  forbidden: 'test_forbidden_000000000000000',
  garbage: 'test_garbage_1111111111111111',
  unknown: 'test_not_a_lob_key_22222222222',
  published: 'test_published_3333333333333333',
} as const;

const lobAccountChecks = (count: number, prefix: string): FakeCheck[] => publishedCheckSeries(count, prefix);

const byNewest = (checks: FakeCheck[]) => [...checks].sort((a, b) => b.date_created.localeCompare(a.date_created) || b.id.localeCompare(a.id)).map((c) => c.id);
const ids = (body: { results: { id: string }[] }) => body.results.map((check) => check.id);

describeEachDatabase('checks: Lob provider', (kind) => {
  let lob: FakeLob;
  let t: TestApp;
  const acmeChecks = lobAccountChecks(260, 'a');
  const globexChecks = lobAccountChecks(3, 'b');
  const asPublished = [
    publishedCheck('usps_first_class', 'chk_534f10783683daa0'),
    publishedCheck('ups_next_day_air', 'chk_534f10783683daa1'),
    ...publishedListedChecks(),
  ] as FakeCheck[];

  const setKey = (company: string, apiKey: string) =>
    t.admin({ method: 'PUT', url: `/admin/v1/companies/${company}/providers/lob`, payload: { api_key: apiKey } });
  const list = (company: string, query = '') => t.as(company, { method: 'GET', url: `/v1/checks${query}` });
  const callsWith = (apiKey: string) => lob.requests.filter((request) => request.apiKey === apiKey);
  const pathOf = (url: string) => {
    assert.ok(url.startsWith('http://wrs.test/v1/checks?'), url);
    return url.slice('http://wrs.test'.length);
  };

  before(async () => {
    lob = await startFakeLob();
    lob.addAccount(KEY.acme, acmeChecks);
    lob.addAccount(KEY.globex, globexChecks);
    lob.addAccount(KEY.slow, acmeChecks, { delayMs: 5_000 });
    lob.addAccount(KEY.limitedTwice, globexChecks, { rateLimited: 2, retryAfterSeconds: 0 });
    lob.addAccount(KEY.limitedLong, globexChecks, { rateLimited: Infinity, resetInSeconds: 120 });
    lob.addAccount(KEY.limitedAlways, globexChecks, { rateLimited: Infinity, retryAfterSeconds: 0 });
    lob.addAccount(KEY.failingTwice, globexChecks, { failures: 2, failureStatus: 503 });
    lob.addAccount(KEY.failing, globexChecks, { failures: Infinity, failureStatus: 500 });
    lob.addAccount(KEY.forbidden, globexChecks, { forbidden: true });
    lob.addAccount(KEY.garbage, globexChecks, { garbage: true });
    lob.addAccount(KEY.published, asPublished);
    t = await createTestApp(kind, {
      env: {
        LOB_BASE_URL: lob.baseUrl,
        WRS_LOB_TIMEOUT_MS: '1000',
        WRS_LOB_MAX_RETRIES: '3',
        WRS_LOB_RETRY_BASE_MS: '1',
        WRS_LOB_RETRY_BUDGET_MS: '2000',
      },
    });
    for (const [company, key] of Object.entries(KEY)) {
      if (company === 'global') continue;
      const response = await setKey(company, key);
      assert.equal(response.statusCode, 200, response.body);
    }
  });
  after(async () => {
    await t.close();
    await lob.close();
  });

  describe('listing through Lob', () => {
    it("lists the company's Lob checks with HTTP Basic auth, newest first", async () => {
      const before = lob.requests.length;
      const response = await list('acme', '?limit=5');
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.count, 5);
      assert.deepEqual(ids(body), byNewest(acmeChecks).slice(0, 5));
      assert.equal(body.results[0].object, 'check');
      assert.equal(body.previous_url, null);
      const calls = lob.requests.slice(before);
      assert.equal(calls.length, 1);
      assert.equal(calls[0]!.apiKey, KEY.acme);
      assert.equal(calls[0]!.path, '/v1/checks');
      assert.deepEqual([...calls[0]!.query], [['limit', '5']]);
    });

    it('passes checks exactly as Lob publishes them through unchanged, of both mail types', async () => {
      const response = await list('published', '?limit=10');
      assert.equal(response.statusCode, 200, response.body);
      const results: { id: string }[] = response.json().results;
      assert.equal(results.length, asPublished.length);
      for (const check of asPublished) {
        assert.equal(JSON.stringify(results.find((result) => result.id === check.id)), JSON.stringify(check), check.id);
      }
      assert.deepEqual(ids((await list('published', '?mail_type=ups_next_day_air')).json()), ['chk_534f10783683daa1']);
    });

    it('points next_url and previous_url at this service, never at Lob, and pages with them', async () => {
      const first = (await list('acme', '?limit=5')).json();
      assert.ok(!first.next_url.includes('lob.com'));
      const second = await t.as('acme', { method: 'GET', url: pathOf(first.next_url) });
      assert.equal(second.statusCode, 200, second.body);
      assert.deepEqual(ids(second.json()), byNewest(acmeChecks).slice(5, 10));
      assert.ok(lob.requests.at(-1)!.query.get('after'), "Lob's own cursor was followed");
      const back = (await t.as('acme', { method: 'GET', url: pathOf(second.json().previous_url) })).json();
      assert.deepEqual(ids(back), ids(first));
      assert.ok(lob.requests.at(-1)!.query.get('before'));
    });

    it("maps filters and sort to Lob's date_created[gt]=... form", async () => {
      const query = '?limit=100&date_created=2026-10-02&send_date__lt=2026-10-05T00:00:00Z&scheduled=true&mail_type=ups_next_day_air&sort_by=send_date';
      const response = await list('acme', query);
      assert.equal(response.statusCode, 200, response.body);
      const sent = Object.fromEntries(lob.requests.at(-1)!.query);
      assert.deepEqual(sent, {
        limit: '100',
        'date_created[gte]': '2026-10-02T00:00:00.000Z',
        'date_created[lt]': '2026-10-03T00:00:00.000Z',
        'send_date[lt]': '2026-10-05T00:00:00.000Z',
        scheduled: 'true',
        mail_type: 'ups_next_day_air',
        'sort_by[send_date]': 'asc',
      });
      const expected = acmeChecks
        .filter(
          (c) => c.date_created.startsWith('2026-10-02') && c.send_date < '2026-10-05' && c.send_date > c.date_created && c.mail_type === 'ups_next_day_air',
        )
        .sort((a, b) => a.send_date.localeCompare(b.send_date) || a.id.localeCompare(b.id))
        .map((c) => c.id);
      assert.ok(expected.length > 0);
      assert.deepEqual(ids(response.json()), expected);
    });

    it('sends each of the operators and the bracket sort form as Lob expects', async () => {
      await list('acme', '?date_created__gt=2026-10-02T05:00:00%2B01:00&date_created__lte=2026-10-05&sort_by[date_created]=asc');
      assert.deepEqual(Object.fromEntries(lob.requests.at(-1)!.query), {
        limit: '100',
        'date_created[gt]': '2026-10-02T04:00:00.000Z',
        'date_created[lte]': '2026-10-05T00:00:00.000Z',
        'sort_by[date_created]': 'asc',
      });
      await list('acme', '?send_date__gte=2026-10-03&send_date=2026-10-03T10:00:00Z');
      assert.deepEqual(Object.fromEntries(lob.requests.at(-1)!.query), {
        limit: '100',
        'send_date[gte]': '2026-10-03T10:00:00.000Z',
        'send_date[lte]': '2026-10-03T10:00:00.000Z',
      });
    });

    it("fills a limit above Lob's 100 by following Lob's cursors, both ways", async () => {
      const start = lob.requests.length;
      const first = (await list('acme', '?limit=250')).json();
      assert.equal(first.count, 250);
      assert.deepEqual(ids(first), byNewest(acmeChecks).slice(0, 250));
      const calls = lob.requests.slice(start);
      assert.deepEqual(
        calls.map((c) => c.query.get('limit')),
        ['100', '100', '50'],
      );
      assert.deepEqual(
        calls.map((c) => c.query.has('after')),
        [false, true, true],
      );

      const rest = (await t.as('acme', { method: 'GET', url: pathOf(first.next_url) })).json();
      assert.deepEqual(ids(rest), byNewest(acmeChecks).slice(250));
      assert.equal(rest.next_url, null);

      const backStart = lob.requests.length;
      const back = (await t.as('acme', { method: 'GET', url: pathOf(rest.previous_url) })).json();
      assert.deepEqual(ids(back), ids(first));
      assert.equal(back.previous_url, null);
      assert.deepEqual(
        lob.requests.slice(backStart).map((c) => c.query.get('limit')),
        ['100', '100', '50'],
      );
      assert.ok(lob.requests.slice(backStart).every((c) => c.query.has('before')));
    });

    it('validates the query before calling Lob', async () => {
      const before = lob.requests.length;
      for (const [query, params] of [
        ['?limit=0', ['limit']],
        ['?sort_by=amount&date_created=yesterday', ['date_created', 'sort_by']],
        ['?after=forged', ['after']],
      ] as const) {
        const response = await list('acme', query);
        assert.equal(response.statusCode, 400, query);
        assert.deepEqual(response.json().invalid_params.sort(), params);
      }
      assert.equal(lob.requests.length, before);
    });
  });

  describe('provider failures are bounded, clear answers', () => {
    it('retries a 429 and answers when Lob lets it through', async () => {
      const response = await list('limitedTwice');
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(ids(response.json()), byNewest(globexChecks));
      assert.equal(callsWith(KEY.limitedTwice).length, 3);
    });

    it('answers 503 rate_limited with Retry-After at once when X-Rate-Limit-Reset is beyond the budget', async () => {
      const response = await list('limitedLong');
      assert.equal(response.statusCode, 503);
      assert.equal(response.json().code, 'rate_limited');
      const retryAfter = Number(response.headers['retry-after']);
      assert.ok(retryAfter >= 100 && retryAfter <= 121, `Retry-After ${retryAfter}`);
      assert.equal(callsWith(KEY.limitedLong).length, 1);
    });

    it('answers 503 rate_limited once the retries are spent', async () => {
      const response = await list('limitedAlways');
      assert.equal(response.statusCode, 503);
      assert.equal(response.json().code, 'rate_limited');
      assert.ok(Number(response.headers['retry-after']) >= 1);
      assert.equal(callsWith(KEY.limitedAlways).length, 4);
    });

    it('answers 504 provider_timeout when Lob is too slow', async () => {
      const response = await list('slow');
      assert.equal(response.statusCode, 504);
      assert.equal(response.json().code, 'provider_timeout');
      assert.equal(typeof response.json().request_id, 'string');
    });

    it('answers 502 provider_error when Lob refuses the key (401 or 403), without echoing it', async () => {
      for (const company of ['unknown', 'forbidden'] as const) {
        const response = await list(company);
        assert.equal(response.statusCode, 502, company);
        assert.equal(response.json().code, 'provider_error');
        assert.match(response.json().message, /refused the API key \((401|403)/);
        assert.ok(!response.body.includes(KEY[company]));
      }
      assert.equal(callsWith(KEY.forbidden).length, 1, 'a refused key is not retried');
    });

    it('retries a 5xx and answers when Lob recovers', async () => {
      const response = await list('failingTwice');
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(callsWith(KEY.failingTwice).length, 3);
    });

    it('answers 502 provider_error when Lob keeps failing', async () => {
      const response = await list('failing');
      assert.equal(response.statusCode, 502);
      assert.equal(response.json().code, 'provider_error');
      assert.equal(callsWith(KEY.failing).length, 4);
    });

    it('answers 502 provider_error when Lob answers something that is not a list', async () => {
      const response = await list('garbage');
      assert.equal(response.statusCode, 502);
      assert.equal(response.json().code, 'provider_error');
    });
  });

  describe('the Lob key', () => {
    it('is answered without the key, and shown only by its last four characters', async () => {
      const put = await setKey('fresh', 'test_fresh_0123456789abcdef');
      assert.equal(put.statusCode, 200);
      assert.ok(!put.body.includes('test_fresh_0123456789abcdef'));
      assert.deepEqual(put.json(), {
        company_id: 'fresh',
        provider: 'lob',
        key_source: 'company',
        lob: { configured: true, key_last4: 'cdef', updated_at: put.json().lob.updated_at },
        global_lob_key: false,
      });
      const status = await t.admin({ method: 'GET', url: '/admin/v1/companies/fresh/providers' });
      assert.deepEqual(status.json(), put.json());
      assert.ok(!status.body.includes('test_fresh'));
    });

    it('is stored encrypted, bound to its company', async () => {
      const rows = await t.ctx.database.db.selectFrom('check_provider_credentials').selectAll().execute();
      const acme = rows.find((row) => row.company_id === 'acme')!;
      assert.ok(acme);
      for (const row of rows) {
        for (const key of Object.values(KEY)) {
          assert.ok(!row.encrypted_key.includes(key), 'plaintext key in the database');
          assert.ok(!row.encrypted_key.includes(Buffer.from(key).toString('base64').slice(0, 20)));
        }
      }
      assert.match(acme.encrypted_key, /^v1:[A-Za-z0-9_-]+$/);
      // The same ciphertext copied to another company does not decrypt there.
      await t.ctx.database.db
        .insertInto('check_provider_credentials')
        .values({ ...acme, company_id: 'thief' })
        .execute();
      const before = callsWith(KEY.acme).length;
      const stolen = await list('thief');
      assert.equal(stolen.statusCode, 502);
      assert.equal(stolen.json().code, 'provider_error');
      assert.equal(callsWith(KEY.acme).length, before);
    });

    it('is never used for another company, which keeps its own checks', async () => {
      await t.admin({ method: 'POST', url: '/admin/v1/companies/initech/checks', payload: [lobCheck({ id: 'chk_initech1' })] });
      const before = lob.requests.length;
      const response = await list('initech');
      assert.equal(response.statusCode, 200);
      assert.deepEqual(ids(response.json()), ['chk_initech1']);
      assert.equal(lob.requests.length, before, 'a company without a key never reaches Lob');
      const status = (await t.admin({ method: 'GET', url: '/admin/v1/companies/initech/providers' })).json();
      assert.equal(status.provider, 'local');
      assert.deepEqual(status.lob, { configured: false, key_last4: null, updated_at: null });
      const globex = (await list('globex')).json();
      assert.deepEqual(ids(globex), byNewest(globexChecks));
      assert.equal(lob.requests.at(-1)!.apiKey, KEY.globex);
    });

    it('can be replaced and removed; removal falls back to the embedded provider', async () => {
      assert.equal((await setKey('switcher', KEY.acme)).statusCode, 200);
      assert.equal((await setKey('switcher', KEY.globex)).json().lob.key_last4, KEY.globex.slice(-4));
      const lobPage = (await list('switcher', '?limit=1')).json();
      assert.equal(lob.requests.at(-1)!.apiKey, KEY.globex);
      const removed = await t.admin({ method: 'DELETE', url: '/admin/v1/companies/switcher/providers/lob' });
      assert.equal(removed.statusCode, 200);
      assert.equal(removed.json().provider, 'local');
      assert.equal(removed.json().lob.configured, false);
      const again = await t.admin({ method: 'DELETE', url: '/admin/v1/companies/switcher/providers/lob' });
      assert.equal(again.statusCode, 200);
      assert.equal((await list('switcher')).json().count, 0);
      // A cursor made while the company used Lob is refused, not sent anywhere.
      const stale = await t.as('switcher', { method: 'GET', url: pathOf(lobPage.next_url) });
      assert.equal(stale.statusCode, 400);
      assert.equal(stale.json().code, 'invalid_query');
    });

    const badKeys: [string, unknown][] = [
      ['a short key', { api_key: 'test_short' }],
      ['a key with a colon', { api_key: 'test_0123456789:abcdef' }],
      ['a key with a space', { api_key: 'test_0123456789 abcdef' }],
      ['no key', {}],
      ['an unknown field', { api_key: 'test_0123456789abcdef', secret: 'x' }],
    ];
    for (const [what, payload] of badKeys) {
      it(`refuses ${what}`, async () => {
        const response = await t.admin({ method: 'PUT', url: '/admin/v1/companies/bad/providers/lob', payload: payload as object });
        assert.equal(response.statusCode, 400);
        assert.equal(response.json().code, 'invalid_body');
        assert.ok(!response.body.includes('0123456789'));
      });
    }

    it('needs the operator token', async () => {
      const asUser = await t.as('acme', { method: 'PUT', url: '/admin/v1/companies/acme/providers/lob', payload: { api_key: KEY.globex } });
      assert.equal(asUser.statusCode, 401);
      const status = await t.as('acme', { method: 'GET', url: '/admin/v1/companies/acme/providers' });
      assert.equal(status.statusCode, 401);
    });
  });
});

describe('checks: the global LOB_API_KEY', () => {
  let lob: FakeLob;
  let t: TestApp;

  before(async () => {
    lob = await startFakeLob();
    lob.addAccount(KEY.global, lobAccountChecks(2, 'c'));
    lob.addAccount(KEY.acme, lobAccountChecks(1, 'a'));
    t = await createTestApp('sqlite', { env: { LOB_BASE_URL: lob.baseUrl, LOB_API_KEY: KEY.global } });
  });
  after(async () => {
    await t.close();
    await lob.close();
  });

  it('serves every company without a key of its own; a company key takes precedence', async () => {
    const status = (await t.admin({ method: 'GET', url: '/admin/v1/companies/any/providers' })).json();
    assert.deepEqual(
      { provider: status.provider, key_source: status.key_source, global: status.global_lob_key },
      { provider: 'lob', key_source: 'global', global: true },
    );
    assert.equal((await t.as('any', { method: 'GET', url: '/v1/checks' })).json().count, 2);
    assert.equal(lob.requests.at(-1)!.apiKey, KEY.global);

    await t.admin({ method: 'PUT', url: '/admin/v1/companies/own/providers/lob', payload: { api_key: KEY.acme } });
    assert.equal((await t.as('own', { method: 'GET', url: '/v1/checks' })).json().count, 1);
    assert.equal(lob.requests.at(-1)!.apiKey, KEY.acme);

    const removed = (await t.admin({ method: 'DELETE', url: '/admin/v1/companies/own/providers/lob' })).json();
    assert.equal(removed.key_source, 'global');
    assert.equal((await t.as('own', { method: 'GET', url: '/v1/checks' })).json().count, 2);
  });
});

describe('checks: Lob out of reach', () => {
  let t: TestApp;

  before(async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    t = await createTestApp('sqlite', {
      env: { LOB_BASE_URL: `http://127.0.0.1:${port}/v1`, LOB_API_KEY: KEY.global, WRS_LOB_RETRY_BASE_MS: '1' },
    });
  });
  after(() => t.close());

  it('answers 502 provider_error, never 500', async () => {
    const response = await t.as('any', { method: 'GET', url: '/v1/checks' });
    assert.equal(response.statusCode, 502);
    assert.equal(response.json().code, 'provider_error');
    assert.match(response.json().message, /could not reach Lob/);
  });
});
