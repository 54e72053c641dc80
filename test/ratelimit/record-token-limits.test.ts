import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDatabase } from '../helpers/databases.js';
import { expectStatus, importRecords } from '../records/fixtures.js';
import { assertRateLimited, createLimitedApp, REDIS_URL, requireRedis, uniquePrefix, type LimitedApp } from './redis-apps.js';

const PER_COMPANY = 60;
const PER_RECORD_TOKEN = 70;
const RECORD = 'form-loan';

/**
 * The scenario: a form link (a record token) used more often than its company's budget
 * allows. `replicas` serve in turn; with Redis they count in one place.
 */
function formLinkScenario(replicas: () => LimitedApp[]): void {
  let turn = 0;
  const next = () => replicas()[turn++ % replicas().length]!;
  const mint = async () => {
    const minted = await next().as('acme', { method: 'POST', url: `/v1/records/${RECORD}/tokens`, payload: { expires_in: 3600 } }, 'u1');
    return expectStatus(minted, 201).token as string;
  };
  const viaForm = (token: string) =>
    next().app.inject({ method: 'GET', url: `/v1/records/${RECORD}`, headers: { authorization: `Bearer ${token}` }, remoteAddress: '203.0.113.50' });
  const companyUser = () => next().as('acme', { method: 'GET', url: '/v1/records', remoteAddress: '192.0.2.50' }, 'u2');
  const remaining = (answer: LightMyRequestResponse) => Number(answer.headers['ratelimit-remaining']);

  it('serves a form link past the company limit without locking the company users out', async () => {
    const token = await mint();
    const before = await companyUser();
    assert.equal(before.statusCode, 200, before.body);
    const companyLeft = remaining(before);

    for (let i = 1; i <= 65; i++) {
      const answer = await viaForm(token);
      assert.equal(answer.statusCode, 200, `request ${i} of the form link: ${answer.body}`);
      assert.equal(answer.headers['ratelimit-limit'], String(PER_RECORD_TOKEN));
      assert.equal(remaining(answer), PER_RECORD_TOKEN - i);
    }
    const after = await companyUser();
    assert.equal(after.statusCode, 200, after.body);
    assert.equal(after.headers['ratelimit-limit'], String(PER_COMPANY));
    assert.equal(remaining(after), companyLeft - 1, "the form link's requests were not charged to the company");
  });

  it('stops the form link at its own limit, and only that link', async () => {
    const token = await mint();
    for (let i = 1; i <= PER_RECORD_TOKEN; i++) assert.equal((await viaForm(token)).statusCode, 200);
    const refused = await viaForm(token);
    assertRateLimited(refused, PER_RECORD_TOKEN);
    assert.match(refused.json().message, /^too many requests for this record token: at most 70 a minute; retry in \d+ s$/);
    assertRateLimited(await viaForm(token), PER_RECORD_TOKEN);

    const user = await companyUser();
    assert.equal(user.statusCode, 200, 'the company users go on');
    const another = await viaForm(await mint());
    assert.equal(another.statusCode, 200, 'another form link has its own budget');
    assert.equal(remaining(another), PER_RECORD_TOKEN - 1);
  });
}

describeEachDatabase('record tokens limited on their own, in memory', (kind) => {
  let t: LimitedApp;
  before(async () => {
    t = await createLimitedApp(kind, { perCompany: PER_COMPANY, perAddress: 10, perRecordToken: PER_RECORD_TOKEN });
    await importRecords(t, 'acme', [{ id: RECORD, record_type: 'uccfiling', status: 'open' }]);
  });
  after(() => t?.close());

  formLinkScenario(() => [t]);
});

describeEachDatabase('record tokens limited on their own, in Redis shared by two replicas', (kind) => {
  let first: LimitedApp;
  let second: LimitedApp;
  const prefix = uniquePrefix();
  before(async () => {
    await requireRedis();
    const options = { perCompany: PER_COMPANY, perAddress: 10, perRecordToken: PER_RECORD_TOKEN, redisUrl: REDIS_URL, prefix, timeoutMs: 5000 };
    first = await createLimitedApp(kind, options);
    second = await createLimitedApp(kind, { ...options, database: first.database });
    await importRecords(first, 'acme', [{ id: RECORD, record_type: 'uccfiling', status: 'open' }]);
  });
  after(async () => {
    await second?.close();
    await first?.close();
  });

  formLinkScenario(() => [first, second]);

  it('counted nothing uncounted', () => {
    assert.deepEqual([...first.storeErrors, ...second.storeErrors], []);
  });
});

describe('a record-token limit of 0', () => {
  let t: LimitedApp;
  before(async () => {
    t = await createLimitedApp('sqlite', { perCompany: 2, perAddress: 2, perRecordToken: 0 });
    await importRecords(t, 'acme', [{ id: RECORD, record_type: 'uccfiling', status: 'open' }]);
  });
  after(() => t?.close());

  it('leaves record tokens unlimited, and still off the company budget', async () => {
    const minted = await t.as('acme', { method: 'POST', url: `/v1/records/${RECORD}/tokens` }, 'u1');
    const token = expectStatus(minted, 201).token as string;
    for (let i = 0; i < 5; i++) {
      const answer = await t.app.inject({ method: 'GET', url: `/v1/records/${RECORD}`, headers: { authorization: `Bearer ${token}` } });
      assert.equal(answer.statusCode, 200, answer.body);
      assert.equal(answer.headers['ratelimit-limit'], undefined);
    }
    const user = await t.as('acme', { method: 'GET', url: '/v1/records' }, 'u2');
    assert.equal(user.statusCode, 200, user.body);
    assert.equal(user.headers['ratelimit-remaining'], '0', 'only the mint and this request were charged to the company');
  });

  it('documents the 429 on every /v1 operation a credential is charged on, the record-token routes included', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    };
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, responses: operation.responses })),
    );
    const limited = operations.filter(({ key }) => key.includes(' /v1/') && key !== 'GET /v1/openapi.json');
    assert.ok(limited.length >= 25, 'the /v1 operations');
    // A route with a limit of its own (the stream's per-company cap) says so in its 429's description.
    for (const { key, responses } of limited) assert.match(responses['429']?.description ?? '', /^rate[ _]limited/, key);
    for (const key of ['GET /v1/records/{record}', 'PATCH /v1/records/{record}', 'GET /v1/record-types/{typeId}', 'GET /v1/records/{record}/files/{fileId}']) {
      assert.ok(
        limited.some((operation) => operation.key === key),
        key,
      );
    }
    // The operator is not limited; a request without a valid operator token is, by its address.
    for (const { key, responses } of operations.filter(({ key }) => key.includes(' /admin/v1/'))) {
      assert.match(responses['429']?.description ?? '', /without a valid operator token .* \(the operator itself is not limited\)/, key);
    }
  });
});
