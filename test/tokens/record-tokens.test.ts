import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { ManualClock } from '../../src/lib/clock.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, signUserToken, TEST_JWT_SECRET, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType, expectStatus, importRecords, LOAN_TYPE } from '../records/fixtures.js';

const START = '2026-06-01T12:00:00.750Z';

describeEachDatabase('record tokens', (kind) => {
  let t: TestApp;
  const clock = new ManualClock(START);
  let record: { id: string };
  let other: { id: string };

  before(async () => {
    t = await createTestApp(kind, { clock });
    await defineType(t, 'acme', 'loan', LOAN_TYPE);
    record = await createRecord(t, 'acme', 'loan');
    other = await createRecord(t, 'acme', 'loan');
    await importRecords(t, 'acme', [{ id: 'shared-id', record_type: 'uccfiling', status: 'acme-status' }]);
    await importRecords(t, 'globex', [{ id: 'shared-id', record_type: 'uccfiling', status: 'globex-status' }]);
  });
  after(() => t.close());

  const mint = (recordId: string, payload?: unknown, company = 'acme', path: 'tokens' | 'actions' = 'tokens') =>
    t.as(company, { method: 'POST', url: `/v1/records/${recordId}/${path}`, ...(payload === undefined ? {} : { payload: payload as object }) }, 'user-42');
  const withToken = (token: string, method: 'GET' | 'PATCH' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
  const mintToken = async (recordId: string, payload?: unknown, company = 'acme') => expectStatus(await mint(recordId, payload, company), 201);

  it('mints a token with every field and alias, whole seconds, exp = expires_at', async () => {
    clock.set(START);
    const body = await mintToken(record.id, { expires_in: 3600 });
    assert.deepEqual(Object.keys(body).sort(), [
      'access',
      'companyId',
      'company_id',
      'createdAt',
      'created_at',
      'expires',
      'expires_at',
      'fields',
      'key',
      'label',
      'recordId',
      'record_id',
      'status_editable',
      'token',
      'type',
      'userId',
      'user_id',
    ]);
    assert.deepEqual(
      { ...body, token: undefined },
      {
        company_id: 'acme',
        companyId: 'acme',
        created_at: '2026-06-01T12:00:00.000Z',
        createdAt: { _seconds: Date.parse('2026-06-01T12:00:00.000Z') / 1000, _nanoseconds: 0 },
        expires_at: '2026-06-01T13:00:00.000Z',
        expires: 3600,
        key: body.key,
        record_id: record.id,
        recordId: record.id,
        type: 'record',
        user_id: 'user-42',
        userId: 'user-42',
        label: null,
        fields: null,
        status_editable: null,
        access: { fields: LOAN_TYPE.fields.map((field) => ({ uid: field.uid, editable: true })), status_editable: true },
        token: undefined,
      },
    );
    assert.equal((Date.parse(body.expires_at) - Date.parse(body.created_at)) / 1000, 3600);
    assert.equal(decodeProtectedHeader(body.token).alg, 'HS256');
    const claims = decodeJwt(body.token);
    assert.deepEqual(claims, {
      type: 'record',
      record_id: record.id,
      company_id: 'acme',
      sub: 'user-42',
      jti: body.key,
      iat: Date.parse(body.created_at) / 1000,
      exp: Date.parse(body.expires_at) / 1000,
    });
  });

  it('defaults to one day, takes the expires alias and a matching record_id / recordId', async () => {
    const lifetimes: Array<[unknown, number]> = [
      [undefined, 86_400],
      [{}, 86_400],
      [{ expires: 120 }, 120],
      [{ expires_in: 300, expires: 300 }, 300],
      [{ expires_in: 1 }, 1],
      [{ expires_in: 2_592_000 }, 2_592_000],
    ];
    for (const [payload, seconds] of lifetimes) {
      const body = await mintToken(record.id, payload);
      assert.equal(body.expires, seconds, JSON.stringify(payload));
      assert.equal((Date.parse(body.expires_at) - Date.parse(body.created_at)) / 1000, seconds);
      const claims = decodeJwt(body.token);
      assert.equal(claims.exp! - claims.iat!, seconds);
    }
    await mintToken(record.id, { record_id: record.id });
    await mintToken(record.id, { recordId: record.id, record_id: record.id, expires_in: 10 });
  });

  const badBodies: Array<[unknown, string]> = [
    [{ expires_in: 0 }, 'expires_in'],
    [{ expires_in: 2_592_001 }, 'expires_in'],
    [{ expires_in: -5 }, 'expires_in'],
    [{ expires_in: 1.5 }, 'expires_in'],
    [{ expires_in: '3600' }, 'expires_in'],
    [{ expires_in: true }, 'expires_in'],
    [{ expires_in: null }, 'expires_in'],
    [{ expires: 0 }, 'expires'],
    [{ expires: 2_592_001 }, 'expires'],
    [{ expires_in: 60, expires: 61 }, 'expires'],
    [{ record_id: 'another' }, 'record_id'],
    [{ recordId: 'another' }, 'recordId'],
    [{ lifetime: 60 }, 'lifetime'],
    [[60], 'JSON object'],
  ];
  for (const [payload, mentions] of badBodies) {
    it(`refuses ${JSON.stringify(payload)} with 400`, async () => {
      for (const path of ['tokens', 'actions'] as const) {
        const body = expectStatus(await mint(record.id, payload, 'acme', path), 400, 'invalid_body');
        assert.ok(body.message.includes(mentions), body.message);
      }
    });
  }

  it('serves /actions as a deprecated alias with Deprecation and Link headers', async () => {
    const response = await mint(record.id, { expires_in: 600 }, 'acme', 'actions');
    const body = expectStatus(response, 201);
    assert.equal(response.headers.deprecation, 'true');
    assert.equal(response.headers.link, `</v1/records/${record.id}/tokens>; rel="successor-version"`);
    assert.equal(body.expires, 600);
    assert.equal(body.type, 'record');
    expectStatus(await withToken(body.token, 'GET', `/v1/records/${record.id}`), 200);
    const tokens = await mint(record.id, {});
    assert.equal(tokens.headers.deprecation, undefined);
    const openapi = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    assert.equal(openapi.paths['/v1/records/{record}/actions'].post.deprecated, true);
    assert.notEqual(openapi.paths['/v1/records/{record}/tokens'].post.deprecated, true);
    for (const route of ['tokens', 'actions']) {
      assert.equal(openapi.paths[`/v1/records/{record}/${route}`].post.requestBody.required, false, `the body of /${route} is optional`);
    }
  });

  it("answers 404 for an unknown record and for another company's record", async () => {
    expectStatus(await mint('no-such-record', {}), 404, 'not_found');
    expectStatus(await mint(record.id, {}, 'globex'), 404, 'not_found');
    expectStatus(await mint(record.id, {}, 'globex', 'actions'), 404, 'not_found');
    expectStatus(await t.as('globex', { method: 'GET', url: `/v1/records/${record.id}/tokens` }), 404, 'not_found');
  });

  it('lets the token read and update its own record', async () => {
    const { token } = await mintToken(record.id, { expires_in: 600 });
    const read = expectStatus(await withToken(token, 'GET', `/v1/records/${record.id}`), 200);
    assert.equal(read.id, record.id);
    const updated = expectStatus(await withToken(token, 'PATCH', `/v1/records/${record.id}`, { f_amount: 777, status: 'in_review' }), 200);
    assert.equal(updated.fields.Amount, 777);
    assert.equal(updated.status, 'in_review');
    assert.equal(expectStatus(await t.as('acme', { method: 'GET', url: `/v1/records/${record.id}` }), 200).fields.Amount, 777);
    // Validation still applies to a record token's updates.
    expectStatus(await withToken(token, 'PATCH', `/v1/records/${record.id}`, { f_amount: 'x' }), 400, 'validation_failed');
  });

  it('forbids every other record and route with 403', async () => {
    const { token } = await mintToken(record.id, { expires_in: 600 });
    const attempts: Array<[string, 'GET' | 'PATCH' | 'POST' | 'PUT' | 'DELETE', string, object?]> = [
      ['another record, read', 'GET', `/v1/records/${other.id}`],
      ['another record, update', 'PATCH', `/v1/records/${other.id}`, { f_amount: 1 }],
      ['an unknown record', 'GET', '/v1/records/no-such-record'],
      ['the record list', 'GET', '/v1/records'],
      ['the record list filtered', 'GET', `/v1/records?next=${record.id}`],
      ['creating a record', 'POST', '/v1/records/loan', { f_amount: 1, f_borrower: 'x' }],
      ['events', 'GET', '/v1/events'],
      ['the events change feed', 'GET', '/v1/events/changes'],
      ['the events stream', 'GET', '/v1/events/stream'],
      ['checks', 'GET', '/v1/checks'],
      ['running a step on its own record', 'PUT', `/v1/records/${record.id}/steps`, { type: 'pdf_create', inputs: {} }],
      ['minting for its own record', 'POST', `/v1/records/${record.id}/tokens`, {}],
      ['minting through /actions', 'POST', `/v1/records/${record.id}/actions`, {}],
      ['minting for another record', 'POST', `/v1/records/${other.id}/tokens`, {}],
      ["listing its record's tokens", 'GET', `/v1/records/${record.id}/tokens`],
      ['revoking a token', 'DELETE', `/v1/records/${record.id}/tokens/anything`],
    ];
    for (const [what, method, url, payload] of attempts) {
      const response = await withToken(token, method, url, payload);
      expectStatus(response, 403, 'forbidden');
      assert.ok(response.json().message.length > 0, what);
    }
    assert.equal(expectStatus(await t.as('acme', { method: 'GET', url: `/v1/records/${other.id}` }), 200).fields.Amount, 1200.5);
    const admin = await withToken(token, 'GET', '/admin/v1/companies/acme/record-types/loan');
    expectStatus(admin, 401, 'unauthorized');
  });

  it('keeps a token to the company it was minted in', async () => {
    const globex = await mintToken('shared-id', {}, 'globex');
    const read = expectStatus(await withToken(globex.token, 'GET', '/v1/records/shared-id'), 200);
    assert.equal(read.status, 'globex-status', 'the same record id in another company is out of reach');
    expectStatus(await withToken(globex.token, 'PATCH', '/v1/records/shared-id', { status: 'changed' }), 200);
    assert.equal(expectStatus(await t.as('acme', { method: 'GET', url: '/v1/records/shared-id' }), 200).status, 'acme-status');
    expectStatus(await withToken(globex.token, 'GET', `/v1/records/${record.id}`), 403, 'forbidden');
  });

  it('refuses forged and tampered tokens with 401', async () => {
    const minted = await mintToken(record.id, { expires_in: 600 });
    const claims = decodeJwt(minted.token);
    const sign = (payload: Record<string, unknown>, secret = TEST_JWT_SECRET) =>
      new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(secret));

    const wrongKey = await sign({ ...claims, record_id: other.id }, 'another-secret-0123456789abcdef0123456789');
    expectStatus(await withToken(wrongKey, 'GET', `/v1/records/${other.id}`), 401, 'unauthorized');
    // Even signed with the service's key, claims that differ from the stored document are refused.
    const resignedRecord = await sign({ ...claims, record_id: other.id });
    expectStatus(await withToken(resignedRecord, 'GET', `/v1/records/${other.id}`), 401, 'unauthorized');
    const resignedCompany = await sign({ ...claims, company_id: 'globex', record_id: 'shared-id' });
    expectStatus(await withToken(resignedCompany, 'GET', '/v1/records/shared-id'), 401, 'unauthorized');
    const resignedKey = await sign({ ...claims, jti: 'made-up-key' });
    expectStatus(await withToken(resignedKey, 'GET', `/v1/records/${record.id}`), 401, 'unauthorized');
    const resignedUser = await sign({ ...claims, sub: 'someone-else' });
    expectStatus(await withToken(resignedUser, 'GET', `/v1/records/${record.id}`), 401, 'unauthorized');
    const { jti: _jti, ...withoutKey } = claims;
    expectStatus(await withToken(await sign(withoutKey), 'GET', `/v1/records/${record.id}`), 401, 'unauthorized');

    const [header, payload] = minted.token.split('.');
    const tamperedPayload = Buffer.from(JSON.stringify({ ...claims, record_id: other.id })).toString('base64url');
    expectStatus(await withToken(`${header}.${tamperedPayload}.${minted.token.split('.')[2]}`, 'GET', `/v1/records/${other.id}`), 401);
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    expectStatus(await withToken(none, 'GET', `/v1/records/${record.id}`), 401, 'unauthorized');
    // The genuine token still works.
    expectStatus(await withToken(minted.token, 'GET', `/v1/records/${record.id}`), 200);
  });

  it('lists live tokens without their token strings', async () => {
    const fresh = await createRecord(t, 'acme', 'loan');
    clock.set('2026-06-02T00:00:00.000Z');
    const first = await mintToken(fresh.id, { expires_in: 100 });
    clock.advanceSeconds(1);
    const second = await mintToken(fresh.id, { expires_in: 1000 });
    const third = await mintToken(fresh.id, { expires_in: 1000 });
    expectStatus(await t.as('acme', { method: 'DELETE', url: `/v1/records/${fresh.id}/tokens/${third.key}` }), 204);
    const listed = expectStatus(await t.as('acme', { method: 'GET', url: `/v1/records/${fresh.id}/tokens` }), 200);
    assert.equal(listed.count, 2);
    assert.deepEqual(
      listed.results,
      [
        { ...first, token: undefined },
        { ...second, token: undefined },
      ].map(({ token: _token, ...rest }) => rest),
    );
    assert.ok(!JSON.stringify(listed).includes(first.token));
    clock.advanceSeconds(100);
    const later = expectStatus(await t.as('acme', { method: 'GET', url: `/v1/records/${fresh.id}/tokens` }), 200);
    assert.deepEqual(
      later.results.map((r: { key: string }) => r.key),
      [second.key],
      'an expired token is not listed',
    );
    expectStatus(await t.as('acme', { method: 'GET', url: '/v1/records/no-such-record/tokens' }), 404, 'not_found');
  });

  it('revokes at once, even while the signature is valid', async () => {
    const minted = await mintToken(record.id, { expires_in: 600 });
    expectStatus(await withToken(minted.token, 'GET', `/v1/records/${record.id}`), 200);
    expectStatus(await t.as('globex', { method: 'DELETE', url: `/v1/records/${record.id}/tokens/${minted.key}` }), 404);
    expectStatus(await t.as('acme', { method: 'DELETE', url: `/v1/records/${other.id}/tokens/${minted.key}` }), 404);
    expectStatus(await t.as('acme', { method: 'DELETE', url: `/v1/records/${record.id}/tokens/no-such-key` }), 404, 'not_found');
    expectStatus(await withToken(minted.token, 'GET', `/v1/records/${record.id}`), 200, undefined);

    expectStatus(await t.as('acme', { method: 'DELETE', url: `/v1/records/${record.id}/tokens/${minted.key}` }), 204);
    const refused = await withToken(minted.token, 'GET', `/v1/records/${record.id}`);
    expectStatus(refused, 401, 'unauthorized');
    assert.match(refused.json().message, /revoked/);
    assert.equal(refused.headers['www-authenticate'], 'Bearer');
    expectStatus(await withToken(minted.token, 'PATCH', `/v1/records/${record.id}`, { f_amount: 1 }), 401);
    expectStatus(await t.as('acme', { method: 'DELETE', url: `/v1/records/${record.id}/tokens/${minted.key}` }), 204, undefined);
    const listed = expectStatus(await t.as('acme', { method: 'GET', url: `/v1/records/${record.id}/tokens` }), 200);
    assert.ok(listed.results.every((r: { key: string }) => r.key !== minted.key));
  });

  it('expires exactly expires_in seconds after issue', async () => {
    clock.set('2026-06-03T08:00:00.400Z');
    const minted = await mintToken(record.id, { expires_in: 60 });
    assert.equal(minted.expires_at, '2026-06-03T08:01:00.000Z');
    clock.set('2026-06-03T08:00:59.999Z');
    expectStatus(await withToken(minted.token, 'GET', `/v1/records/${record.id}`), 200);
    clock.set('2026-06-03T08:01:00.000Z');
    const expired = await withToken(minted.token, 'GET', `/v1/records/${record.id}`);
    expectStatus(expired, 401, 'unauthorized');
    assert.match(expired.json().message, /expired/);
    clock.set('2026-07-01T00:00:00.000Z');
    expectStatus(await withToken(minted.token, 'PATCH', `/v1/records/${record.id}`, { f_amount: 2 }), 401);
  });

  it('mints only for a user: a token without a subject cannot mint', async () => {
    const anonymous = await signUserToken({ company_id: 'acme' });
    const response = await t.app.inject({
      method: 'POST',
      url: `/v1/records/${record.id}/tokens`,
      headers: { authorization: `Bearer ${anonymous}` },
      payload: {},
    });
    expectStatus(response, 403, 'forbidden');
  });
});
