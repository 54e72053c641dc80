import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signUserToken } from '../helpers/test-app.js';
import { TcpProxy } from '../hardening/helpers/tcp-proxy.js';
import { eventually } from '../webhooks/receiver.js';
import {
  anonymous,
  assertRateLimited,
  assertServedUncounted,
  createLimitedApp,
  deadPort,
  REDIS_PORT,
  requireRedis,
  uniquePrefix,
  type LimitedApp,
} from './redis-apps.js';

const STORE_FAILED = 'rate limit store failed: requests are served uncounted';
const CONNECTION_FAILED = 'rate limit Redis connection failed';

describe('rate limits with Redis unreachable', () => {
  let t: LimitedApp;
  before(async () => {
    const port = await deadPort();
    t = await createLimitedApp('sqlite', { perCompany: 1, perAddress: 1, redisUrl: `redis://127.0.0.1:${port}`, prefix: uniquePrefix() });
  });
  after(() => t?.close());

  it('serves every request uncounted (fail open), logs once rather than a line a request, and reports each', async () => {
    const address = '198.51.100.40';
    for (let i = 0; i < 3; i++) assertServedUncounted(await anonymous(t, address));
    for (let i = 0; i < 3; i++) {
      assertServedUncounted(await t.as('acme', { method: 'GET', url: '/v1/records', remoteAddress: address }));
    }
    const forged = await signUserToken({ company_id: 'acme' }, { secret: 'not-the-secret-0123456789abcdef0123456789' });
    for (let i = 0; i < 2; i++) {
      const refused = await t.app.inject({ method: 'GET', url: '/v1/records', remoteAddress: address, headers: { authorization: `Bearer ${forged}` } });
      assert.equal(refused.statusCode, 401, 'a refused credential is still refused, not limited');
    }
    assert.equal(t.storeErrors.length, 8, 'every uncounted request is reported');
    assert.equal(t.warnings.filter((warning) => warning.msg === STORE_FAILED).length, 1);
    assert.ok(t.warnings.some((warning) => warning.msg === CONNECTION_FAILED));
    assert.equal((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200, 'still ready: it serves');
  });
});

describe('rate limits with Redis slow, then away, then back', () => {
  const proxy = new TcpProxy('127.0.0.1', REDIS_PORT);
  let t: LimitedApp;
  before(async () => {
    await requireRedis();
    await proxy.start();
    t = await createLimitedApp('sqlite', {
      perCompany: 5,
      perAddress: 5,
      redisUrl: `redis://127.0.0.1:${proxy.port}`,
      prefix: uniquePrefix(),
      // Long enough that a command Redis answers is never timed out by a busy machine (CI runs
      // two test files at once, one of them may be driving Chromium), short enough for the test.
      timeoutMs: 400,
    });
  });
  after(async () => {
    await t?.close();
    await proxy.close();
  });

  it('serves requests uncounted past the command timeout while Redis stalls, then counts what it caught up on', async () => {
    const address = '198.51.100.50';
    assert.equal((await anonymous(t, address)).headers['ratelimit-remaining'], '4');
    await proxy.set('hold');
    for (let i = 0; i < 3; i++) assertServedUncounted(await anonymous(t, address));
    assertServedUncounted(await t.as('acme', { method: 'GET', url: '/v1/records', remoteAddress: address }));
    assert.deepEqual(
      t.storeErrors.map((error) => error.message),
      Array<string>(4).fill('Command timed out'),
    );
    await proxy.set('open');
    // The stalled commands reach Redis late and are counted there: 1 + 3 of the 5 are spent.
    const caughtUp = await anonymous(t, address);
    assert.equal(caughtUp.statusCode, 200);
    assert.equal(caughtUp.headers['ratelimit-remaining'], '0');
    assertRateLimited(await anonymous(t, address), 5);
  });

  it('serves requests uncounted while Redis refuses connections, and counts again once it is back', async () => {
    const address = '198.51.100.60';
    const reportedBefore = t.storeErrors.length;
    await proxy.set('refuse');
    for (let i = 0; i < 3; i++) assertServedUncounted(await anonymous(t, address));
    assert.equal(t.storeErrors.length, reportedBefore + 3);
    await proxy.set('open');
    const back = await eventually(
      async () => {
        const answer = await anonymous(t, address);
        return { status: answer.statusCode, remaining: answer.headers['ratelimit-remaining'] };
      },
      (answer) => answer.status !== 200 || answer.remaining !== undefined,
    );
    assert.deepEqual(back, { status: 200, remaining: '4' }, 'counting starts again with the whole budget');
    assert.equal((await anonymous(t, address)).headers['ratelimit-remaining'], '3');
  });
});
