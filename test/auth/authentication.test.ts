import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { ManualClock } from '../../src/lib/clock.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, signUserToken, TEST_ADMIN_TOKEN, TEST_JWT_SECRET, type TestApp } from '../helpers/test-app.js';
import { anEvent, ingestOk } from '../events/event-fixtures.js';

const NOW = '2026-06-01T12:00:00.000Z';
const NOW_S = Date.parse(NOW) / 1000;
const COMPANY = 'auth-co';

const listWith = (t: TestApp, authorization?: string) =>
  t.app.inject({ method: 'GET', url: '/v1/events', headers: authorization === undefined ? {} : { authorization } });

function expectUnauthorized(response: LightMyRequestResponse, messageIncludes?: string): void {
  assert.equal(response.statusCode, 401, response.body);
  const body = response.json();
  assert.equal(body.code, 'unauthorized');
  assert.equal(typeof body.message, 'string');
  assert.equal(response.headers['www-authenticate'], 'Bearer');
  if (messageIncludes) assert.ok(body.message.includes(messageIncludes), body.message);
}

function expectCompanyEvents(response: LightMyRequestResponse, company = COMPANY): void {
  assert.equal(response.statusCode, 200, response.body);
  const body = response.json();
  assert.ok(body.count > 0);
  assert.ok(body.results.every((event: { company_id: string }) => event.company_id === company));
}

/** An HS256 token at the test clock's time, with claims and header fields of the caller's choosing. */
async function hsToken(claims: JWTPayload, options: { secret?: string; exp?: number | null; nbf?: number } = {}): Promise<string> {
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt(NOW_S);
  if (options.exp !== null) jwt = jwt.setExpirationTime(options.exp ?? NOW_S + 3600);
  if (options.nbf !== undefined) jwt = jwt.setNotBefore(options.nbf);
  return jwt.sign(new TextEncoder().encode(options.secret ?? TEST_JWT_SECRET));
}

const unsigned = (header: object, claims: object) =>
  `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;

describeEachDatabase('authentication of GET /v1/events', (kind) => {
  describe('default: HS256 with WRS_JWT_SECRET', () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(kind, { clock: new ManualClock(NOW) });
      await ingestOk(t, COMPANY, [anEvent(), anEvent()]);
      await ingestOk(t, 'other-co', [anEvent()]);
    });
    after(() => t.close());

    it('accepts a valid bearer token and scopes the answer to its company', async () => {
      expectCompanyEvents(await listWith(t, `Bearer ${await hsToken({ company_id: COMPANY, sub: 'u1' })}`));
      expectCompanyEvents(await listWith(t, `bearer ${await hsToken({ company_id: 'other-co' })}`), 'other-co');
    });

    it('refuses a missing Authorization header', async () => {
      expectUnauthorized(await listWith(t), 'missing bearer token');
    });

    it('refuses other schemes and a scheme without a token', async () => {
      const token = await hsToken({ company_id: COMPANY });
      for (const header of [`Basic ${Buffer.from('a:b').toString('base64')}`, `Token ${token}`, 'Bearer', 'Bearer ', token, `Bearer ${token} extra`]) {
        expectUnauthorized(await listWith(t, header));
      }
    });

    it("tells a caller who sent the operator token to /v1 that it is the operator token and /v1 wants a company user's JWT", async () => {
      const response = await listWith(t, `Bearer ${TEST_ADMIN_TOKEN}`);
      expectUnauthorized(response, 'operator token (WRS_ADMIN_TOKEN)');
      assert.match(response.json().message, /\/v1 wants a company user's JWT/);
      const other = await listWith(t, 'Bearer not-the-operator-token');
      assert.doesNotMatch(other.json().message, /operator/, 'another bad token is not called the operator token');
    });

    it('refuses malformed tokens', async () => {
      for (const token of ['not-a-jwt', 'a.b.c', 'a.b', '...', `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.e30`]) {
        expectUnauthorized(await listWith(t, `Bearer ${token}`));
      }
    });

    it('refuses a bad signature', async () => {
      const forged = await hsToken({ company_id: COMPANY }, { secret: 'another-secret-0123456789abcdef0123456789' });
      expectUnauthorized(await listWith(t, `Bearer ${forged}`), 'signature');
      const valid = await hsToken({ company_id: COMPANY });
      const [header, , signature] = valid.split('.');
      const tampered = `${header}.${Buffer.from(JSON.stringify({ company_id: 'other-co' })).toString('base64url')}.${signature}`;
      expectUnauthorized(await listWith(t, `Bearer ${tampered}`), 'signature');
    });

    it('refuses an expired token, and one not valid yet', async () => {
      expectUnauthorized(await listWith(t, `Bearer ${await hsToken({ company_id: COMPANY }, { exp: NOW_S - 1 })}`), 'expired');
      expectUnauthorized(await listWith(t, `Bearer ${await hsToken({ company_id: COMPANY }, { nbf: NOW_S + 60 })}`), 'not valid yet');
      expectCompanyEvents(await listWith(t, `Bearer ${await hsToken({ company_id: COMPANY }, { exp: NOW_S + 1, nbf: NOW_S })}`));
      expectCompanyEvents(await listWith(t, `Bearer ${await hsToken({ company_id: COMPANY }, { exp: null })}`));
    });

    it('refuses alg: none, with or without a signature', async () => {
      const claims = { company_id: COMPANY, sub: 'u1', exp: NOW_S + 3600 };
      expectUnauthorized(await listWith(t, `Bearer ${unsigned({ alg: 'none', typ: 'JWT' }, claims)}`));
      expectUnauthorized(await listWith(t, `Bearer ${unsigned({ alg: 'none' }, claims)}sig`));
      expectUnauthorized(await listWith(t, `Bearer ${unsigned({ alg: 'None' }, claims)}`));
    });

    it('refuses a token without company_id, and accepts the companyId alias', async () => {
      expectUnauthorized(await listWith(t, `Bearer ${await hsToken({ sub: 'u1' })}`), 'company_id');
      expectUnauthorized(await listWith(t, `Bearer ${await hsToken({ company_id: '' })}`), 'company_id');
      expectUnauthorized(await listWith(t, `Bearer ${await hsToken({ company_id: 42 } as JWTPayload)}`), 'company_id');
      expectCompanyEvents(await listWith(t, `Bearer ${await hsToken({ companyId: COMPANY })}`));
    });

    it('takes the user from sub, or from the user_id alias', async () => {
      const alias = await hsToken({ company_id: COMPANY, user_id: 'u-alias' });
      expectCompanyEvents(await listWith(t, `Bearer ${alias}`));
      assert.deepEqual(await t.ctx.authenticator.authenticate(`Bearer ${alias}`), { kind: 'user', companyId: COMPANY, userId: 'u-alias' });
      const both = await hsToken({ company_id: COMPANY, sub: 'u-sub', user_id: 'u-alias' });
      assert.deepEqual(await t.ctx.authenticator.authenticate(`Bearer ${both}`), { kind: 'user', companyId: COMPANY, userId: 'u-sub' });
    });

    it('refuses an oversized token before verifying it', async () => {
      const huge = await hsToken({ company_id: COMPANY, padding: 'x'.repeat(9000) });
      expectUnauthorized(await listWith(t, `Bearer ${huge}`), 'too long');
    });

    it('checks the token before the query', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/v1/events?limit=0', headers: { authorization: 'Bearer nope' } });
      expectUnauthorized(response);
    });
  });

  describe('WRS_JWT_LEEWAY_S', () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(kind, { clock: new ManualClock(NOW), env: { WRS_JWT_LEEWAY_S: '30' } });
      await ingestOk(t, COMPANY, [anEvent()]);
    });
    after(() => t.close());

    it('tolerates clock skew up to the leeway, on exp and nbf', async () => {
      expectCompanyEvents(await listWith(t, `Bearer ${await hsToken({ company_id: COMPANY }, { exp: NOW_S - 20 })}`));
      expectCompanyEvents(await listWith(t, `Bearer ${await hsToken({ company_id: COMPANY }, { nbf: NOW_S + 20 })}`));
      expectUnauthorized(await listWith(t, `Bearer ${await hsToken({ company_id: COMPANY }, { exp: NOW_S - 40 })}`), 'expired');
      expectUnauthorized(await listWith(t, `Bearer ${await hsToken({ company_id: COMPANY }, { nbf: NOW_S + 40 })}`), 'not valid yet');
    });
  });

  describe('WRS_JWT_ISSUER and WRS_JWT_AUDIENCE', () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(kind, {
        clock: new ManualClock(NOW),
        env: { WRS_JWT_ISSUER: 'https://idp.example', WRS_JWT_AUDIENCE: 'wrs-api' },
      });
      await ingestOk(t, COMPANY, [anEvent()]);
    });
    after(() => t.close());

    it('accepts the configured issuer and audience only', async () => {
      const token = (claims: JWTPayload) => hsToken({ company_id: COMPANY, ...claims });
      expectCompanyEvents(await listWith(t, `Bearer ${await token({ iss: 'https://idp.example', aud: 'wrs-api' })}`));
      expectCompanyEvents(await listWith(t, `Bearer ${await token({ iss: 'https://idp.example', aud: ['other', 'wrs-api'] })}`));
      expectUnauthorized(await listWith(t, `Bearer ${await token({ aud: 'wrs-api' })}`), 'iss');
      expectUnauthorized(await listWith(t, `Bearer ${await token({ iss: 'https://evil.example', aud: 'wrs-api' })}`), 'iss');
      expectUnauthorized(await listWith(t, `Bearer ${await token({ iss: 'https://idp.example' })}`), 'aud');
      expectUnauthorized(await listWith(t, `Bearer ${await token({ iss: 'https://idp.example', aud: 'other' })}`), 'aud');
    });
  });

  for (const alg of ['RS256', 'ES256'] as const) {
    describe(`WRS_JWT_PUBLIC_KEY with ${alg}`, () => {
      let t: TestApp;
      let privateKey: CryptoKey;
      let publicPem: string;
      before(async () => {
        const pair = await generateKeyPair(alg, { extractable: true });
        privateKey = pair.privateKey;
        publicPem = await exportSPKI(pair.publicKey);
        t = await createTestApp(kind, { clock: new ManualClock(NOW), env: { WRS_JWT_PUBLIC_KEY: publicPem } });
        await ingestOk(t, COMPANY, [anEvent()]);
      });
      after(() => t.close());

      const signed = (key: CryptoKey, claims: JWTPayload = { company_id: COMPANY }) =>
        new SignJWT(claims)
          .setProtectedHeader({ alg })
          .setIssuedAt(NOW_S)
          .setExpirationTime(NOW_S + 600)
          .sign(key);

      it(`accepts a ${alg} token signed by the matching private key`, async () => {
        expectCompanyEvents(await listWith(t, `Bearer ${await signed(privateKey)}`));
      });

      it('refuses a token signed by another key pair', async () => {
        const other = await generateKeyPair(alg);
        expectUnauthorized(await listWith(t, `Bearer ${await signed(other.privateKey)}`), 'signature');
      });

      it('refuses HS256 tokens, including one keyed with the public key itself', async () => {
        expectUnauthorized(await listWith(t, `Bearer ${await hsToken({ company_id: COMPANY })}`), 'algorithm');
        expectUnauthorized(await listWith(t, `Bearer ${await hsToken({ company_id: COMPANY }, { secret: publicPem })}`), 'algorithm');
        expectUnauthorized(await listWith(t, `Bearer ${await signUserToken({ company_id: COMPANY }, { secret: publicPem })}`));
      });

      it('still refuses alg: none', async () => {
        expectUnauthorized(await listWith(t, `Bearer ${unsigned({ alg: 'none' }, { company_id: COMPANY })}`));
      });
    });
  }
});
