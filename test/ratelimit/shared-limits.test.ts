import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { signUserToken } from '../helpers/test-app.js';
import { anonymous, assertRateLimited, createLimitedApp, REDIS_URL, requireRedis, uniquePrefix, type LimitedApp } from './redis-apps.js';

describeEachDatabase('rate limits shared in Redis by two replicas', (kind) => {
  let first: LimitedApp;
  let second: LimitedApp;
  const prefix = uniquePrefix();
  before(async () => {
    await requireRedis();
    first = await createLimitedApp(kind, { perCompany: 2, perAddress: 3, redisUrl: REDIS_URL, prefix });
    second = await createLimitedApp(kind, { perCompany: 2, perAddress: 3, redisUrl: REDIS_URL, prefix, database: first.database });
  });
  after(async () => {
    await second?.close();
    await first?.close();
  });

  it('spends one address budget across both: the second refuses once the first has used it', async () => {
    const address = '198.51.100.10';
    const remaining = [];
    for (let i = 0; i < 3; i++) {
      const answer = await anonymous(first, address);
      assert.equal(answer.statusCode, 200, answer.body);
      remaining.push(answer.headers['ratelimit-remaining']);
    }
    assert.deepEqual(remaining, ['2', '1', '0']);
    assertRateLimited(await anonymous(second, address), 3);
    assert.equal((await anonymous(second, '198.51.100.11')).statusCode, 200, 'another address has its own budget');
  });

  it('spends one company budget across both, whatever the user', async () => {
    const list = (replica: LimitedApp, company: string, user: string) =>
      replica.as(company, { method: 'GET', url: '/v1/records', remoteAddress: '192.0.2.20' }, user);
    assert.equal((await list(first, 'acme', 'u1')).statusCode, 200);
    const second1 = await list(second, 'acme', 'u2');
    assert.equal(second1.statusCode, 200, second1.body);
    assert.equal(second1.headers['ratelimit-remaining'], '0');
    assertRateLimited(await list(first, 'acme', 'u3'), 2);
    assertRateLimited(await list(second, 'acme', 'u1'), 2);
    assert.equal((await list(second, 'globex', 'u1')).statusCode, 200, 'another company is not affected');
  });

  it('charges refused credentials on either replica to the same address budget', async () => {
    const address = '198.51.100.12';
    const forged = await signUserToken({ company_id: 'acme' }, { secret: 'not-the-secret-0123456789abcdef0123456789' });
    const refused = (replica: LimitedApp) =>
      replica.app.inject({ method: 'GET', url: '/v1/records', remoteAddress: address, headers: { authorization: `Bearer ${forged}` } });
    assert.deepEqual([(await refused(first)).statusCode, (await refused(second)).statusCode, (await refused(first)).statusCode], [401, 401, 401]);
    const limited = await refused(second);
    assertRateLimited(limited, 3);
    assert.equal(limited.headers['www-authenticate'], undefined, 'the refused 401 became a 429');
  });

  it('counts nothing for the store in the happy path', () => {
    assert.deepEqual([...first.storeErrors, ...second.storeErrors], []);
    assert.deepEqual([...first.warnings, ...second.warnings], []);
  });
});

describe('rate limits of two deployments on one Redis', () => {
  let staging: LimitedApp;
  let production: LimitedApp;
  before(async () => {
    await requireRedis();
    staging = await createLimitedApp('sqlite', { perCompany: 1, perAddress: 1, redisUrl: REDIS_URL, prefix: uniquePrefix() });
    production = await createLimitedApp('sqlite', { perCompany: 1, perAddress: 1, redisUrl: REDIS_URL, prefix: uniquePrefix() });
  });
  after(async () => {
    await staging?.close();
    await production?.close();
  });

  it('keeps budgets apart by WRS_REDIS_PREFIX', async () => {
    const address = '198.51.100.20';
    assert.equal((await anonymous(staging, address)).statusCode, 200);
    assertRateLimited(await anonymous(staging, address), 1);
    assert.equal((await anonymous(production, address)).statusCode, 200);
  });
});

describe('rate limits without WRS_REDIS_URL', () => {
  let first: LimitedApp;
  let second: LimitedApp;
  before(async () => {
    first = await createLimitedApp('sqlite', { perCompany: 2, perAddress: 2 });
    second = await createLimitedApp('sqlite', { perCompany: 2, perAddress: 2, database: first.database });
  });
  after(async () => {
    await second?.close();
    await first?.close();
  });

  it('counts in each process: N replicas allow N times the limit', async () => {
    const address = '198.51.100.30';
    for (const replica of [first, second]) {
      assert.equal((await anonymous(replica, address)).statusCode, 200);
      assert.equal((await anonymous(replica, address)).statusCode, 200);
      assertRateLimited(await anonymous(replica, address), 2);
    }
  });
});
