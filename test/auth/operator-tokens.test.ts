import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, exportSPKI, generateKeyPair } from 'jose';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { cliEnv, runCli } from '../helpers/cli-process.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { defineType, LOAN_TYPE, VALID_LOAN } from '../records/fixtures.js';

const ISSUER = 'https://idp.example';
const AUDIENCE = 'wrs-api';
const COMPANY = 'acme';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * Tokens the service signs itself (operator-minted user tokens, `wrs token`, record tokens)
 * must pass its own verification when WRS_JWT_ISSUER / WRS_JWT_AUDIENCE are set.
 */
describeEachDatabase('tokens the service mints, with WRS_JWT_ISSUER and WRS_JWT_AUDIENCE set', (kind) => {
  let t: TestApp;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wrs-issuer-'));
    t = await createTestApp(kind, { env: { WRS_JWT_ISSUER: ISSUER, WRS_JWT_AUDIENCE: AUDIENCE } });
    await defineType(t, COMPANY, 'loan', LOAN_TYPE);
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('POST /admin/v1/tokens signs iss and aud, and /v1 accepts the token', async () => {
    const minted = await t.admin({ method: 'POST', url: '/admin/v1/tokens', payload: { company_id: COMPANY, user_id: 'u-1' } });
    assert.equal(minted.statusCode, 201, minted.body);
    const { token } = minted.json();
    assert.deepEqual({ iss: decodeJwt(token).iss, aud: decodeJwt(token).aud }, { iss: ISSUER, aud: AUDIENCE });
    const listed = await t.app.inject({ method: 'GET', url: '/v1/records', headers: bearer(token) });
    assert.equal(listed.statusCode, 200, listed.body);
  });

  it('wrs token signs iss and aud, and /v1 accepts the token', async () => {
    const env = cliEnv(join(dir, 'cli.db'), { WRS_JWT_ISSUER: ISSUER, WRS_JWT_AUDIENCE: AUDIENCE });
    const run = await runCli(['token', '--company', COMPANY, '--user', 'u-cli'], env);
    assert.equal(run.status, 0, run.stderr);
    const token = run.stdout.trim();
    assert.equal(decodeJwt(token).iss, ISSUER);
    assert.equal(decodeJwt(token).aud, AUDIENCE);
    const listed = await t.app.inject({ method: 'GET', url: '/v1/records', headers: bearer(token) });
    assert.equal(listed.statusCode, 200, listed.body);
  });

  it('record tokens minted with such a user token read and update their record', async () => {
    const userToken = (await t.admin({ method: 'POST', url: '/admin/v1/tokens', payload: { company_id: COMPANY, user_id: 'u-1' } })).json().token;
    const created = await t.app.inject({ method: 'POST', url: '/v1/records/loan', headers: bearer(userToken), payload: VALID_LOAN });
    assert.equal(created.statusCode, 201, created.body);
    const record = created.json();
    const minted = await t.app.inject({ method: 'POST', url: `/v1/records/${record.id}/tokens`, headers: bearer(userToken) });
    assert.equal(minted.statusCode, 201, minted.body);
    const recordToken = minted.json().token;
    const read = await t.app.inject({ method: 'GET', url: `/v1/records/${record.id}`, headers: bearer(recordToken) });
    assert.equal(read.statusCode, 200, read.body);
    const patched = await t.app.inject({ method: 'PATCH', url: `/v1/records/${record.id}`, headers: bearer(recordToken), payload: { status: 'done' } });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json().status, 'done');
  });
});

describe('wrs token with an external identity provider configured', () => {
  it('refuses to mint, as POST /admin/v1/tokens does', async () => {
    const { publicKey } = await generateKeyPair('ES256', { extractable: true });
    const dir = mkdtempSync(join(tmpdir(), 'wrs-idp-'));
    try {
      const run = await runCliInProcess(['token', '--company', COMPANY], cliEnv(join(dir, 'cli.db'), { WRS_JWT_PUBLIC_KEY: await exportSPKI(publicKey) }));
      assert.equal(run.status, 2, run.stderr);
      assert.match(run.stderr, /identity provider/);
      assert.equal(run.stdout, '');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
