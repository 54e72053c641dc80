import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt, SignJWT } from 'jose';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { ManualClock } from '../../src/lib/clock.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { cliEnv, runCli } from '../helpers/cli-process.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, TEST_ADMIN_TOKEN, TEST_JWT_SECRET, type TestApp } from '../helpers/test-app.js';
import { expectStatus, importRecords } from '../records/fixtures.js';

const NOW = '2026-06-01T12:00:00.000Z';
const NOW_S = Date.parse(NOW) / 1000;
const SECRETS = { WRS_JWT_SECRET: TEST_JWT_SECRET, WRS_ADMIN_TOKEN: TEST_ADMIN_TOKEN, WRS_ENCRYPTION_KEY: '00'.repeat(32) };

/** A user token at the test clock's time; `iat` / `exp` null leave the claim out. */
function userToken(times: { iat?: number | null; exp?: number | null } = {}): Promise<string> {
  let jwt = new SignJWT({ company_id: 'acme', sub: 'u1' }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' });
  if (times.iat !== null) jwt = jwt.setIssuedAt(times.iat ?? NOW_S);
  if (times.exp !== null) jwt = jwt.setExpirationTime(times.exp ?? NOW_S + 3600);
  return jwt.sign(new TextEncoder().encode(TEST_JWT_SECRET));
}

const list = (t: TestApp, token: string) => t.app.inject({ method: 'GET', url: '/v1/records', headers: { authorization: `Bearer ${token}` } });

function expectRefused(response: LightMyRequestResponse, message: string): void {
  assert.equal(response.statusCode, 401, response.body);
  assert.deepEqual(response.json(), { message, code: 'unauthorized' });
  assert.equal(response.headers['www-authenticate'], 'Bearer');
}

const NO_EXPIRY = 'bearer token has no expiry (exp claim): this service accepts only tokens that expire';

describeEachDatabase('user JWTs without exp', (kind) => {
  const app = (env: Record<string, string>) => createTestApp(kind, { clock: new ManualClock(NOW), env });

  describe('in production', () => {
    let t: TestApp;
    before(async () => {
      t = await app({ NODE_ENV: 'production' });
    });
    after(() => t?.close());

    it('refuses a token without exp, and again on its next use (a refusal is not cached)', async () => {
      const token = await userToken({ exp: null });
      expectRefused(await list(t, token), NO_EXPIRY);
      expectRefused(await list(t, token), NO_EXPIRY);
    });

    it('accepts a token with exp', async () => {
      const token = await userToken();
      assert.equal((await list(t, token)).statusCode, 200);
      assert.equal((await list(t, token)).statusCode, 200);
    });

    it('accepts the tokens the operator API mints', async () => {
      const minted = expectStatus(await t.admin({ method: 'POST', url: '/admin/v1/tokens', payload: { company_id: 'acme', user_id: 'u1' } }), 201);
      const claims = decodeJwt(minted.token);
      assert.equal(claims.exp! - claims.iat!, 86_400);
      assert.equal((await list(t, minted.token)).statusCode, 200);
    });
  });

  it('in production with WRS_JWT_REQUIRE_EXP=false, accepts a token without exp', async () => {
    const t = await app({ NODE_ENV: 'production', WRS_JWT_REQUIRE_EXP: 'false' });
    try {
      assert.equal((await list(t, await userToken({ exp: null }))).statusCode, 200);
    } finally {
      await t.close();
    }
  });

  it('outside production, accepts a token without exp unless WRS_JWT_REQUIRE_EXP=true', async () => {
    const token = await userToken({ exp: null });
    const lenient = await app({ NODE_ENV: 'test' });
    const strict = await app({ NODE_ENV: 'development', WRS_JWT_REQUIRE_EXP: 'true' });
    try {
      assert.equal((await list(lenient, token)).statusCode, 200);
      expectRefused(await list(strict, token), NO_EXPIRY);
    } finally {
      await lenient.close();
      await strict.close();
    }
  });
});

describeEachDatabase('WRS_JWT_MAX_LIFETIME_S', (kind) => {
  const clock = new ManualClock(NOW);
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind, { clock, env: { WRS_JWT_MAX_LIFETIME_S: '3600', WRS_JWT_REQUIRE_EXP: 'false' } });
    await importRecords(t, 'acme', [{ id: 'capped-loan', record_type: 'uccfiling', status: 'open' }]);
  });
  after(() => t?.close());

  it('accepts a token that lives exactly the cap', async () => {
    clock.set(NOW);
    assert.equal((await list(t, await userToken({ exp: NOW_S + 3600 }))).statusCode, 200);
    assert.equal((await list(t, await userToken({ iat: NOW_S - 3000, exp: NOW_S + 600 }))).statusCode, 200);
  });

  it('refuses a token whose exp - iat is over the cap, even when little of it is left', async () => {
    clock.set(NOW);
    const token = await userToken({ iat: NOW_S - 86_000, exp: NOW_S + 400 });
    const message = 'bearer token lives too long: exp - iat is 86400 s, and this service accepts tokens that live at most 3600 s';
    expectRefused(await list(t, token), message);
    expectRefused(await list(t, token), message);
  });

  it('measures a token without iat from now', async () => {
    clock.set(NOW);
    assert.equal((await list(t, await userToken({ iat: null, exp: NOW_S + 3600 }))).statusCode, 200);
    expectRefused(
      await list(t, await userToken({ iat: null, exp: NOW_S + 7200 })),
      'bearer token lives too long: it expires in 7200 s, and this service accepts tokens that live at most 3600 s',
    );
  });

  it('refuses a token without exp, even with WRS_JWT_REQUIRE_EXP=false', async () => {
    clock.set(NOW);
    expectRefused(
      await list(t, await userToken({ exp: null })),
      'bearer token has no expiry (exp claim): this service accepts tokens that live at most 3600 s',
    );
  });

  it('still refuses an accepted token once it has expired (the verified-token cache)', async () => {
    clock.set(NOW);
    const token = await userToken({ exp: NOW_S + 60 });
    assert.equal((await list(t, token)).statusCode, 200);
    clock.advanceSeconds(61);
    expectRefused(await list(t, token), 'bearer token has expired');
  });

  it('has the operator API mint within the cap: the cap as default, a longer expires_in refused', async () => {
    clock.set(NOW);
    const mint = (payload: object) => t.admin({ method: 'POST', url: '/admin/v1/tokens', payload: { company_id: 'acme', user_id: 'u1', ...payload } });
    const minted = expectStatus(await mint({}), 201);
    const claims = decodeJwt(minted.token);
    assert.equal(claims.exp! - claims.iat!, 3600);
    assert.equal((await list(t, minted.token)).statusCode, 200);
    assert.equal(decodeJwt(expectStatus(await mint({ expires_in: 600 }), 201).token).exp, NOW_S + 600);
    const refused = expectStatus(await mint({ expires_in: 3601 }), 400, 'invalid_body');
    assert.equal(
      refused.message,
      "invalid body: field 'expires_in' 3601 s is longer than WRS_JWT_MAX_LIFETIME_S (3600 s): this service would refuse the token",
    );
  });

  it('leaves record tokens to their own bound: one minted for a day is accepted', async () => {
    clock.set(NOW);
    const user = await userToken();
    const minted = await t.app.inject({
      method: 'POST',
      url: '/v1/records/capped-loan/tokens',
      headers: { authorization: `Bearer ${user}` },
      payload: { expires_in: 86_400 },
    });
    const { token } = expectStatus(minted, 201);
    const read = await t.app.inject({ method: 'GET', url: '/v1/records/capped-loan', headers: { authorization: `Bearer ${token}` } });
    assert.equal(read.statusCode, 200, read.body);
  });
});

describe('the lifetime settings', () => {
  const production = { NODE_ENV: 'production', WRS_PUBLIC_URL: 'https://api.example.com', ...SECRETS };

  it('require exp in production only, unless WRS_JWT_REQUIRE_EXP says otherwise', () => {
    assert.equal(loadConfig({}).jwt.requireExpiry, false);
    assert.equal(loadConfig(production).jwt.requireExpiry, true);
    assert.equal(loadConfig({ ...production, WRS_JWT_REQUIRE_EXP: 'false' }).jwt.requireExpiry, false);
    assert.equal(loadConfig({ WRS_JWT_REQUIRE_EXP: 'true' }).jwt.requireExpiry, true);
    assert.equal(loadConfig({}).jwt.maxLifetimeSeconds, undefined);
    assert.equal(loadConfig({ WRS_JWT_MAX_LIFETIME_S: '900' }).jwt.maxLifetimeSeconds, 900);
  });

  it('refuses values they cannot use, naming each', () => {
    for (const env of [{ WRS_JWT_REQUIRE_EXP: 'sometimes' }, { WRS_JWT_MAX_LIFETIME_S: '0' }, { WRS_JWT_MAX_LIFETIME_S: '1h' }]) {
      const [name] = Object.keys(env);
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && error.problems.length === 1 && error.problems[0]!.startsWith(`${name}:`),
        JSON.stringify(env),
      );
    }
  });
});

describe('wrs token under WRS_JWT_MAX_LIFETIME_S', () => {
  let scratch: string;
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'wrs-token-'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('prints a token within the cap, and refuses a longer --expires-in', async () => {
    const env = cliEnv(join(scratch, 'wrs.db'), { WRS_JWT_MAX_LIFETIME_S: '600' });
    const run = await runCli(['token', '--company', 'acme', '--user', 'u1'], env);
    assert.equal(run.status, 0, run.stderr);
    const claims = decodeJwt(run.stdout.trim());
    assert.equal(claims.exp! - claims.iat!, 600);
    const refused = await runCliInProcess(['token', '--company', 'acme', '--expires-in', '3600'], env);
    assert.equal(refused.status, 2, 'a usage error');
    assert.match(refused.stderr, /--expires-in 3600 s is longer than WRS_JWT_MAX_LIFETIME_S \(600 s\)/);
    assert.equal(refused.stdout, '');
  });
});
