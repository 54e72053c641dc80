import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it, mock } from 'node:test';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { createAuthenticator } from '../../src/domain/auth/authenticator.js';
import { createJwtVerifier } from '../../src/domain/auth/jwt-verifier.js';
import { registerErrorHandling } from '../../src/http/error-handler.js';
import { registerAuthentication } from '../../src/http/plugins/authenticate.js';
import { clientAddressKey } from '../../src/http/plugins/client-address.js';
import { registerRateLimiting } from '../../src/http/plugins/rate-limit.js';
import { systemClock } from '../../src/lib/clock.js';
import { createTestApp, signUserToken, TEST_ADMIN_TOKEN, TEST_JWT_SECRET, type TestApp } from '../helpers/test-app.js';

/** The windows are counted against `Date.now()`; the tests move it on instead of waiting. */
function mockDate(): void {
  mock.timers.enable({ apis: ['Date'], now: Date.now() });
}

function assertRateLimited(response: LightMyRequestResponse, limit: number): void {
  assert.equal(response.statusCode, 429, response.body);
  assert.equal(response.json().code, 'rate_limited');
  assert.equal(typeof response.json().message, 'string');
  assert.match(String(response.headers['retry-after']), /^[1-9]\d*$/);
  assert.equal(response.headers['ratelimit-limit'], String(limit));
  assert.equal(response.headers['ratelimit-remaining'], '0');
  assert.match(String(response.headers['ratelimit-reset']), /^\d+$/);
}

describe('client address keys', () => {
  it('keys IPv6 clients by /64 and IPv4-mapped addresses by their IPv4 address', () => {
    assert.equal(clientAddressKey('203.0.113.9'), '203.0.113.9');
    assert.equal(clientAddressKey('::ffff:203.0.113.9'), '203.0.113.9');
    assert.equal(clientAddressKey('2001:db8:1:2:aaaa::1'), clientAddressKey('2001:0db8:0001:0002:bbbb:cccc:dddd:eeee'));
    assert.equal(clientAddressKey('2001:db8:1:2::7'), '2001:db8:1:2::/64');
    assert.notEqual(clientAddressKey('2001:db8:1:2::1'), clientAddressKey('2001:db8:1:3::1'));
    assert.equal(clientAddressKey('::1'), '0:0:0:0::/64');
    assert.equal(clientAddressKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
  });
});

describe('rate limiting by client address (the real app)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite', {
      env: { WRS_RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '3', WRS_RATE_LIMIT_PER_MINUTE: '1000' },
    });
  });
  after(() => t.close());
  afterEach(() => mock.timers.reset());

  it('limits requests without a credential per address, with the RateLimit headers', async () => {
    mockDate();
    const remoteAddress = '198.51.100.1';
    const answers = [];
    for (let i = 0; i < 3; i++) {
      answers.push(await t.app.inject({ method: 'GET', url: '/v1/openapi.json', remoteAddress }));
    }
    assert.deepEqual(
      answers.map((response) => [response.statusCode, response.headers['ratelimit-remaining']]),
      [
        [200, '2'],
        [200, '1'],
        [200, '0'],
      ],
    );
    assert.equal(answers[0]!.headers['ratelimit-limit'], '3');
    assert.equal(answers[0]!.headers['ratelimit-policy'], '3;w=60');
    assertRateLimited(await t.app.inject({ method: 'GET', url: '/v1/openapi.json', remoteAddress }), 3);
    assertRateLimited(await t.app.inject({ method: 'GET', url: '/v1/no-such-route', remoteAddress }), 3);

    const elsewhere = await t.app.inject({ method: 'GET', url: '/v1/openapi.json', remoteAddress: '198.51.100.2' });
    assert.equal(elsewhere.statusCode, 200, 'another address has its own budget');

    mock.timers.tick(59_000);
    assertRateLimited(await t.app.inject({ method: 'GET', url: '/v1/openapi.json', remoteAddress }), 3);
    mock.timers.tick(1_000);
    const renewed = await t.app.inject({ method: 'GET', url: '/v1/openapi.json', remoteAddress });
    assert.equal(renewed.statusCode, 200, 'the budget is whole again a minute after the first request');
    assert.equal(renewed.headers['ratelimit-remaining'], '2');
  });

  it('counts refused credentials against the address and answers 429 past the budget', async () => {
    const remoteAddress = '198.51.100.3';
    const forged = await signUserToken({ company_id: 'c1' }, { secret: 'not-the-secret-0123456789abcdef0123456789' });
    const send = (authorization: string) =>
      t.app.inject({ method: 'POST', url: '/admin/v1/tokens', remoteAddress, headers: { authorization }, payload: { company_id: 'c1' } });
    const userSend = (authorization: string) => t.app.inject({ method: 'GET', url: '/v1/no-such-route', remoteAddress, headers: { authorization } });
    const statuses = [
      (await send('Bearer wrong-operator-token')).statusCode,
      (await userSend(`Bearer ${forged}`)).statusCode,
      (await userSend('Basic abc')).statusCode,
    ];
    assert.deepEqual(statuses, [401, 404, 404]);
    const limited = await send('Bearer wrong-operator-token');
    assertRateLimited(limited, 3);
    assert.equal(limited.headers['www-authenticate'], undefined, 'the refused 401 became a 429');
  });

  it('does not limit the verified operator, nor health checks', async () => {
    const remoteAddress = '198.51.100.4';
    for (let i = 0; i < 6; i++) {
      const minted = await t.app.inject({
        method: 'POST',
        url: '/admin/v1/tokens',
        remoteAddress,
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
        payload: { company_id: 'c1' },
      });
      assert.equal(minted.statusCode, 201);
      assert.equal(minted.headers['ratelimit-limit'], undefined);
      for (const url of ['/healthz', '/readyz']) {
        const health = await t.app.inject({ method: 'GET', url, remoteAddress });
        assert.equal(health.statusCode, 200);
        assert.equal(health.headers['ratelimit-limit'], undefined);
      }
    }
  });
});

describe('rate limiting by company (the plugin behind real authentication)', () => {
  let app: FastifyInstance;
  before(async () => {
    const verifier = createJwtVerifier(
      {
        secret: TEST_JWT_SECRET,
        publicKeyPem: undefined,
        jwksUrl: undefined,
        issuer: undefined,
        audience: undefined,
        leewaySeconds: 0,
        requireExpiry: false,
        maxLifetimeSeconds: undefined,
      },
      systemClock,
    );
    app = Fastify();
    registerErrorHandling(app, () => null);
    const limiting = await registerRateLimiting(app, { perCompanyPerMinute: 2, perAddressPerMinute: 100, perRecordTokenPerMinute: 100, redis: null }, null);
    await app.register(
      async (v1) => {
        registerAuthentication(v1, createAuthenticator(verifier), async () => null);
        limiting.limitByIdentity(v1);
        v1.get('/probe', async (request) => ({ company: request.identity?.companyId }));
      },
      { prefix: '/v1' },
    );
    await app.ready();
  });
  after(() => app.close());
  afterEach(() => mock.timers.reset());

  const probe = async (companyId: string, remoteAddress: string, userId = 'u1') =>
    app.inject({
      method: 'GET',
      url: '/v1/probe',
      remoteAddress,
      headers: { authorization: `Bearer ${await signUserToken({ company_id: companyId, sub: userId })}` },
    });

  it('charges the verified company, whatever the address or user', async () => {
    mockDate();
    const first = await probe('acme', '203.0.113.1');
    assert.equal(first.statusCode, 200);
    assert.equal(first.headers['ratelimit-limit'], '2');
    assert.equal(first.headers['ratelimit-remaining'], '1');
    assert.equal((await probe('acme', '203.0.113.2', 'u2')).statusCode, 200);
    assertRateLimited(await probe('acme', '203.0.113.3', 'u3'), 2);
    const other = await probe('globex', '203.0.113.1');
    assert.equal(other.statusCode, 200, 'another company has its own budget');
    assert.equal(other.headers['ratelimit-remaining'], '1');
    mock.timers.tick(60_000);
    assert.equal((await probe('acme', '203.0.113.1')).statusCode, 200);
  });
});

describe('rate limiting by company (the real app)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite', { env: { WRS_RATE_LIMIT_PER_MINUTE: '2', WRS_RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '2' } });
  });
  after(() => t.close());
  afterEach(() => mock.timers.reset());

  it('limits each company on its own, apart from the address budget', async () => {
    mockDate();
    const list = (company: string, user = 'u1') => t.as(company, { method: 'GET', url: '/v1/records', remoteAddress: '192.0.2.7' }, user);
    const first = await list('acme');
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.headers['ratelimit-remaining'], '1');
    assert.equal((await list('acme', 'u2')).statusCode, 200);
    assertRateLimited(await list('acme', 'u3'), 2);
    assert.equal((await list('globex')).statusCode, 200, 'another company is not affected');
    assert.equal((await list('initech')).statusCode, 200, 'verified requests do not spend the address budget');
    mock.timers.tick(60_000);
    assert.equal((await list('acme')).statusCode, 200);
  });
});
