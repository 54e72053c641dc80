import assert from 'node:assert/strict';
import { KeyObject, sign } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { ManualClock } from '../../src/lib/clock.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { documentedOperations, fillPath, operationKey, type Operation } from '../helpers/openapi-operations.js';
import { createTestApp, TEST_ADMIN_TOKEN, TEST_JWT_SECRET, type TestApp } from '../helpers/test-app.js';
import { minimalTemplate } from '../pdf/fixtures/templates.js';
import { defineType, LOAN_TYPE, VALID_LOAN } from '../records/fixtures.js';

/**
 * Attacks on authentication that test/auth and test/tokens do not already make: algorithm
 * confusion and header-embedded keys on every route, alg:none in every spelling, claims edited
 * without re-signing (record tokens' company and type too), oversized credentials on both APIs,
 * the leeway as a setting and its limit on the service's own tokens, and every credential kept
 * to its own API and routes, with the route lists read from the OpenAPI document.
 */
const NOW = '2026-06-01T12:00:00.000Z';
const NOW_S = Date.parse(NOW) / 1000;
const COMPANY = 'acme';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const unsigned = (header: object, claims: object, signature = '') => `${b64(header)}.${b64(claims)}.${signature}`;
const hs256 = (claims: JWTPayload, secret: string | Uint8Array = TEST_JWT_SECRET, header: Record<string, unknown> = {}) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', ...header })
    .setIssuedAt(NOW_S)
    .setExpirationTime(NOW_S + 3600)
    .sign(typeof secret === 'string' ? new TextEncoder().encode(secret) : secret);

/** Replaces claims in a signed token's payload, keeping its header and signature. */
function edited(token: string, change: (claims: Record<string, unknown>) => Record<string, unknown>): string {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  return `${header}.${b64(change(claims))}.${signature}`;
}

function expectStatus(response: LightMyRequestResponse, status: number, code: string | undefined, what: string): void {
  assert.equal(response.statusCode, status, `${what}: ${response.body.slice(0, 300)}`);
  if (code) assert.equal(response.json().code, code, what);
}

interface Fixture {
  recordId: string;
  otherRecordId: string;
  tokenKey: string;
  recordToken: string;
  fileId: string;
}

/** A record type, two records, a record token for the first, a PDF of the first. */
async function seed(t: TestApp, userAuthorization: string): Promise<Fixture> {
  await defineType(t, COMPANY, 'loan', LOAN_TYPE);
  const as = (method: 'POST' | 'PUT', url: string, payload: object) => t.app.inject({ method, url, payload, headers: { authorization: userAuthorization } });
  const record = (await as('POST', '/v1/records/loan', VALID_LOAN)).json();
  const other = (await as('POST', '/v1/records/loan', VALID_LOAN)).json();
  const minted = await as('POST', `/v1/records/${record.id}/tokens`, { expires_in: 600 });
  assert.equal(minted.statusCode, 201, minted.body);
  const template = await t.admin({ method: 'PUT', url: `/admin/v1/companies/${COMPANY}/templates/invoice`, payload: minimalTemplate() });
  assert.equal(template.statusCode, 201, template.body);
  const step = await as('PUT', `/v1/records/${record.id}/steps`, { type: 'pdf_create', inputs: { pdf_filename: 'a', template_id: 'invoice' } });
  assert.equal(step.statusCode, 200, step.body);
  return { recordId: record.id, otherRecordId: other.id, tokenKey: minted.json().key, recordToken: minted.json().token, fileId: step.json().details.file_id };
}

const pathValues = (f: Fixture, record = f.recordId) => ({
  record,
  typeId: 'loan',
  key: f.tokenKey,
  fileId: f.fileId,
  company: COMPANY,
  templateId: 'invoice',
  id: 'wh-unknown',
  delivery: 'msg_unknown',
});

/** Calls every operation with one Authorization header and checks the answer. */
async function everyOperation(
  t: TestApp,
  operations: readonly Operation[],
  authorization: string,
  values: Record<string, string>,
  expect: (operation: Operation, response: LightMyRequestResponse) => void,
): Promise<void> {
  for (const operation of operations) {
    const response = await t.app.inject({ method: operation.method, url: fillPath(operation.path, values), headers: { authorization } });
    expect(operation, response);
  }
}

describeEachDatabase('authentication attacks', (kind) => {
  describe('with WRS_JWT_PUBLIC_KEY (RS256)', () => {
    let t: TestApp;
    let privateKey: CryptoKey;
    let publicPem: string;
    let f: Fixture;
    let v1: Operation[];
    const rs256 = (key: CryptoKey, header: Record<string, unknown> = {}, claims: JWTPayload = { company_id: COMPANY, sub: 'u1' }) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', ...header })
        .setIssuedAt(NOW_S)
        .setExpirationTime(NOW_S + 600)
        .sign(key);

    before(async () => {
      const pair = await generateKeyPair('RS256', { extractable: true });
      privateKey = pair.privateKey;
      publicPem = await exportSPKI(pair.publicKey);
      t = await createTestApp(kind, { clock: new ManualClock(NOW), env: { WRS_JWT_PUBLIC_KEY: publicPem } });
      f = await seed(t, `Bearer ${await rs256(privateKey)}`);
      v1 = await documentedOperations(t, '/v1/');
    });
    after(() => t.close());

    it("accepts the genuine RS256 token and the service's own record token (the controls)", async () => {
      const read = await t.app.inject({ method: 'GET', url: `/v1/records/${f.recordId}`, headers: { authorization: `Bearer ${await rs256(privateKey)}` } });
      expectStatus(read, 200, undefined, 'RS256 user token');
      const own = await t.app.inject({ method: 'GET', url: `/v1/records/${f.recordId}`, headers: { authorization: `Bearer ${f.recordToken}` } });
      expectStatus(own, 200, undefined, 'record token');
    });

    it('refuses, on every /v1 route, HS256 tokens keyed with the public key (PEM text or DER), as user and as record tokens', async () => {
      const der = Buffer.from(publicPem.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');
      const secrets: Array<string | Uint8Array> = [publicPem, publicPem.trim(), publicPem.replace(/\n/g, '\r\n'), new Uint8Array(der)];
      const claimSets: JWTPayload[] = [
        { company_id: COMPANY, sub: 'u1' },
        { type: 'record', record_id: f.recordId, company_id: COMPANY, sub: 'u1', jti: f.tokenKey },
      ];
      for (const secret of secrets) {
        for (const claims of claimSets) {
          const token = await hs256(claims, secret);
          await everyOperation(t, v1, `Bearer ${token}`, pathValues(f), (operation, response) =>
            expectStatus(response, 401, 'unauthorized', `${operationKey(operation)} with HS256/${claims.type ?? 'user'}`),
          );
        }
      }
    });

    it('never takes the key from the token: embedded jwk, jku, x5u or kid headers, and unknown crit extensions', async () => {
      const attacker = await generateKeyPair('RS256', { extractable: true });
      const attackerJwk = await exportJWK(attacker.publicKey);
      const headers: Array<Record<string, unknown>> = [
        { jwk: attackerJwk },
        { jku: 'http://127.0.0.1:9/jwks.json', kid: 'k1' },
        { x5u: 'http://127.0.0.1:9/cert.pem' },
        { kid: '../../../../dev/null' },
      ];
      for (const header of headers) {
        const token = await rs256(attacker.privateKey, header);
        await everyOperation(t, v1, `Bearer ${token}`, pathValues(f), (operation, response) =>
          expectStatus(response, 401, 'unauthorized', `${operationKey(operation)} with ${Object.keys(header).join(',')}`),
        );
      }
      // jose will not sign an unknown crit extension, so this one is signed by hand.
      const input = `${b64({ alg: 'RS256', crit: ['x-must-understand'], 'x-must-understand': true })}.${b64({ company_id: COMPANY, exp: NOW_S + 600 })}`;
      const critical = `${input}.${sign('sha256', Buffer.from(input), KeyObject.from(privateKey)).toString('base64url')}`;
      const response = await t.app.inject({ method: 'GET', url: '/v1/records', headers: { authorization: `Bearer ${critical}` } });
      expectStatus(response, 401, 'unauthorized', 'unknown crit extension');
    });

    it('does not mint HS256 user tokens through the operator API while user tokens come from the public key', async () => {
      const response = await t.admin({ method: 'POST', url: '/admin/v1/tokens', payload: { company_id: COMPANY } });
      expectStatus(response, 400, 'invalid_body', 'operator mint with an external key');
    });
  });

  describe('with HS256 (the default)', () => {
    let t: TestApp;
    const clock = new ManualClock(NOW);
    let f: Fixture;
    let userToken: string;
    let v1: Operation[];
    let admin: Operation[];

    before(async () => {
      t = await createTestApp(kind, { clock });
      userToken = await hs256({ company_id: COMPANY, sub: 'u1' });
      f = await seed(t, `Bearer ${userToken}`);
      await t.admin({ method: 'POST', url: '/admin/v1/companies/globex/records', payload: [{ id: 'g1', record_type: 'uccfiling', status: 'filed' }] });
      v1 = await documentedOperations(t, '/v1/');
      admin = await documentedOperations(t, '/admin/v1/');
    });
    after(() => t.close());

    it('refuses alg none in any spelling, with user or record claims, signed or not, on every /v1 route', async () => {
      const claimSets = [
        { company_id: COMPANY, sub: 'u1', exp: NOW_S + 600 },
        { type: 'record', record_id: f.recordId, company_id: COMPANY, sub: 'u1', jti: f.tokenKey, exp: NOW_S + 600 },
      ];
      const validSignature = userToken.split('.')[2]!;
      for (const alg of ['none', 'None', 'NONE', 'nOnE', '']) {
        for (const claims of claimSets) {
          for (const token of [unsigned({ alg, typ: 'JWT' }, claims), unsigned({ alg }, claims, validSignature), unsigned({ alg }, claims).slice(0, -1)]) {
            await everyOperation(t, v1, `Bearer ${token}`, pathValues(f), (operation, response) =>
              expectStatus(response, 401, 'unauthorized', `${operationKey(operation)} with alg '${alg}'`),
            );
          }
        }
      }
    });

    it('refuses a user or record token whose claims were changed without re-signing', async () => {
      const attempts: Array<[string, string, string]> = [
        ['user token to another company', edited(userToken, (c) => ({ ...c, company_id: 'globex' })), '/v1/records/g1'],
        ['user token with the companyId alias added', edited(userToken, (c) => ({ ...c, companyId: 'globex', company_id: undefined })), '/v1/records/g1'],
        ['user token with a later exp', edited(userToken, (c) => ({ ...c, exp: NOW_S + 10 ** 8 })), '/v1/records'],
        [
          'user token turned into a record token',
          edited(userToken, (c) => ({ ...c, type: 'record', record_id: f.recordId, jti: f.tokenKey })),
          `/v1/records/${f.recordId}`,
        ],
        ['record token to another company', edited(f.recordToken, (c) => ({ ...c, company_id: 'globex', record_id: 'g1' })), '/v1/records/g1'],
        ['record token to another record', edited(f.recordToken, (c) => ({ ...c, record_id: f.otherRecordId })), `/v1/records/${f.otherRecordId}`],
        ['record token turned into a user token', edited(f.recordToken, (c) => ({ ...c, type: undefined })), '/v1/records'],
        ['record token with a later exp', edited(f.recordToken, (c) => ({ ...c, exp: NOW_S + 10 ** 8 })), `/v1/records/${f.recordId}`],
      ];
      for (const [what, token, url] of attempts) {
        const response = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
        expectStatus(response, 401, 'unauthorized', what);
      }
      const genuine = await t.app.inject({ method: 'GET', url: `/v1/records/${f.recordId}`, headers: { authorization: `Bearer ${f.recordToken}` } });
      expectStatus(genuine, 200, undefined, 'the genuine record token');
    });

    it('refuses claims of the wrong type', async () => {
      const tokens: Array<[string, string]> = [
        [
          'exp as a string',
          await new SignJWT({ company_id: COMPANY, exp: String(NOW_S + 600) } as unknown as JWTPayload)
            .setProtectedHeader({ alg: 'HS256' })
            .sign(new TextEncoder().encode(TEST_JWT_SECRET)),
        ],
        ['nbf as a string', await hs256({ company_id: COMPANY, nbf: '0' } as unknown as JWTPayload)],
        ['company_id as an array', await hs256({ company_id: [COMPANY] })],
        ['company_id as an object', await hs256({ company_id: { $ne: null } })],
        ['companyId alias as a number', await hs256({ companyId: 7 })],
        // A company_id that is present but no company ID is refused, never passed over for the alias.
        ['company_id as a number beside a valid companyId', await hs256({ company_id: 42, companyId: COMPANY })],
        ['company_id empty beside a valid companyId', await hs256({ company_id: '', companyId: COMPANY })],
        ['company_id null beside a valid companyId', await hs256({ company_id: null, companyId: COMPANY })],
        ['company_id with a trailing blank', await hs256({ company_id: `${COMPANY} ` })],
        ['company_id with a dot segment', await hs256({ company_id: `${COMPANY}/..` })],
        ['company_id with a zero-width space', await hs256({ company_id: `${COMPANY}\u200b` })],
      ];
      for (const [what, token] of tokens) {
        const response = await t.app.inject({ method: 'GET', url: '/v1/records', headers: { authorization: `Bearer ${token}` } });
        expectStatus(response, 401, 'unauthorized', what);
      }
    });

    it('answers oversized credentials with 401 on both APIs and keeps serving', async () => {
      const bigRecordToken = await hs256({ type: 'record', record_id: f.recordId, company_id: COMPANY, sub: 'u1', jti: f.tokenKey, pad: 'x'.repeat(10_000) });
      for (const size of [8_193, 65_536, 1_048_576]) {
        const junk = `Bearer ${'a'.repeat(size)}`;
        expectStatus(await t.app.inject({ method: 'GET', url: '/v1/records', headers: { authorization: junk } }), 401, 'unauthorized', `${size} bytes on /v1`);
        expectStatus(
          await t.app.inject({ method: 'GET', url: `/admin/v1/companies/${COMPANY}/record-types`, headers: { authorization: junk } }),
          401,
          'unauthorized',
          `${size} bytes on /admin/v1`,
        );
      }
      const big = await t.app.inject({ method: 'GET', url: `/v1/records/${f.recordId}`, headers: { authorization: `Bearer ${bigRecordToken}` } });
      expectStatus(big, 401, 'unauthorized', 'a validly signed but oversized record token');
      const after = await t.app.inject({ method: 'GET', url: '/v1/records', headers: { authorization: `Bearer ${userToken}` } });
      expectStatus(after, 200, undefined, 'a normal request afterwards');
    });

    it('answers a record token with 403 on every /v1 route but reading, updating and listing or downloading the files of its own record, and reading its type', async () => {
      const allowed = new Set([
        'GET /v1/records/{record}',
        'PATCH /v1/records/{record}',
        'GET /v1/records/{record}/files',
        'GET /v1/records/{record}/files/{fileId}',
        'GET /v1/record-types/{typeId}',
      ]);
      const accepted: string[] = [];
      for (const operation of v1) {
        for (const record of [f.recordId, f.otherRecordId, 'g1']) {
          const response = await t.app.inject({
            method: operation.method,
            // Beside other records, another type than its own record's ('loan').
            url: fillPath(operation.path, { ...pathValues(f, record), typeId: record === f.recordId ? 'loan' : `not-${record}` }),
            headers: { authorization: `Bearer ${f.recordToken}` },
            ...(operation.method === 'PATCH' ? { payload: { f_amount: 5 } } : {}),
          });
          const what = `${operationKey(operation)} for ${record === f.recordId ? 'its own record' : record}`;
          if (response.statusCode < 300) {
            accepted.push(operationKey(operation));
            assert.equal(record, f.recordId, `${what} was accepted`);
          } else {
            expectStatus(response, 403, 'forbidden', what);
          }
        }
      }
      assert.deepEqual(new Set(accepted), allowed, 'the routes a record token may use');
    });

    it('keeps each credential to its own API: user and record tokens get 401 on /admin/v1, the operator token 401 on /v1', async () => {
      for (const authorization of [`Bearer ${userToken}`, `Bearer ${f.recordToken}`]) {
        await everyOperation(t, admin, authorization, pathValues(f), (operation, response) =>
          expectStatus(response, 401, 'unauthorized', `${operationKey(operation)} with a ${authorization === `Bearer ${userToken}` ? 'user' : 'record'} token`),
        );
      }
      await everyOperation(t, v1, `Bearer ${TEST_ADMIN_TOKEN}`, pathValues(f), (operation, response) =>
        expectStatus(response, 401, 'unauthorized', `${operationKey(operation)} with the operator token`),
      );
    });
  });

  describe('WRS_JWT_LEEWAY_S', () => {
    let t: TestApp;
    const clock = new ManualClock(NOW);
    let f: Fixture;

    before(async () => {
      t = await createTestApp(kind, { clock, env: { WRS_JWT_LEEWAY_S: '300' } });
      f = await seed(t, `Bearer ${await hs256({ company_id: COMPANY, sub: 'u1' })}`);
    });
    after(() => t.close());

    it('is a setting of whole seconds from 0 to 3600, 0 by default; anything else stops the start', () => {
      assert.equal(loadConfig({ NODE_ENV: 'test' }).jwt.leewaySeconds, 0);
      assert.equal(loadConfig({ NODE_ENV: 'test', WRS_JWT_LEEWAY_S: '3600' }).jwt.leewaySeconds, 3600);
      for (const value of ['-1', '3601', '1.5', 'ten', '1e3']) {
        assert.throws(
          () => loadConfig({ NODE_ENV: 'test', WRS_JWT_LEEWAY_S: value }),
          (error: unknown) => error instanceof ConfigError && error.problems.some((problem) => problem.startsWith('WRS_JWT_LEEWAY_S')),
          value,
        );
      }
      // Whole numbers are read as written for every integer setting ('1e6' was read as 1).
      assert.throws(() => loadConfig({ NODE_ENV: 'test', WRS_BODY_LIMIT_BYTES: '1e6' }), ConfigError);
    });

    it("stretches user tokens' exp and nbf, but never a record token past its expires_at", async () => {
      const read = (token: string) => t.app.inject({ method: 'GET', url: `/v1/records/${f.recordId}`, headers: { authorization: `Bearer ${token}` } });
      clock.set(NOW);
      const lateUser = await new SignJWT({ company_id: COMPANY })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime(NOW_S - 200)
        .sign(new TextEncoder().encode(TEST_JWT_SECRET));
      expectStatus(await read(lateUser), 200, undefined, 'a user token 200 s past exp, within the leeway');
      const earlyUser = await new SignJWT({ company_id: COMPANY })
        .setProtectedHeader({ alg: 'HS256' })
        .setNotBefore(NOW_S + 200)
        .sign(new TextEncoder().encode(TEST_JWT_SECRET));
      expectStatus(await read(earlyUser), 200, undefined, 'a user token 200 s before nbf, within the leeway');
      const tooEarly = await new SignJWT({ company_id: COMPANY })
        .setProtectedHeader({ alg: 'HS256' })
        .setNotBefore(NOW_S + 400)
        .sign(new TextEncoder().encode(TEST_JWT_SECRET));
      expectStatus(await read(tooEarly), 401, 'unauthorized', 'a user token 400 s before nbf');

      // The record token of the fixture was minted at NOW with expires_in 600.
      clock.set(new Date((NOW_S + 599) * 1000));
      expectStatus(await read(f.recordToken), 200, undefined, 'the record token a second before expires_at');
      clock.set(new Date((NOW_S + 601) * 1000));
      expectStatus(await read(f.recordToken), 401, 'unauthorized', 'the record token a second past expires_at, inside the JWT leeway');
      clock.set(NOW);
    });
  });
});
