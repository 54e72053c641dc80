import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDatabase } from '../helpers/databases.js';
import { changedTables, dataFingerprint } from '../helpers/data-fingerprint.js';
import { createTestApp, signUserToken, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType, importRecords, LOAN_TYPE, VALID_LOAN } from '../records/fixtures.js';

/**
 * Counterexamples the input properties (property-input.test.ts) found, kept as plain tests.
 * Each was a 5xx or an answer outside the error contract before its fix.
 */
describeEachDatabase('property counterexamples', (kind) => {
  let t: TestApp;
  let recordId: string;

  before(async () => {
    t = await createTestApp(kind);
    await defineType(t, 'acme', 'loan', LOAN_TYPE);
    recordId = (await createRecord(t, 'acme', 'loan')).id;
    await importRecords(t, 'acme', [{ id: 'untyped', record_type: 'uccfiling', status: 'filed' }]);
  });
  after(() => t.close());

  function expectError(response: LightMyRequestResponse, status: number, code: string): void {
    assert.equal(response.statusCode, status, response.body);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    assert.equal(response.json().code, code, response.body);
    assert.equal(typeof response.json().message, 'string');
    assert.ok(response.headers['x-request-id'], 'x-request-id');
    assert.equal(response.headers['x-content-type-options'], 'nosniff', 'security headers');
  }

  /** Sends a refused request and checks that nothing stored changed. */
  async function refusedWithoutChange(send: () => Promise<LightMyRequestResponse>, status: number, code: string): Promise<void> {
    const before = await dataFingerprint(t.ctx.database);
    expectError(await send(), status, code);
    assert.deepEqual(changedTables(before, await dataFingerprint(t.ctx.database)), []);
  }

  it('takes record type IDs up to their documented 200 characters (the router stopped at 100 with a 414)', async () => {
    const typeId = 't'.repeat(200);
    const response = await t.admin({ method: 'PUT', url: `/admin/v1/companies/acme/record-types/${typeId}`, payload: LOAN_TYPE });
    assert.equal(response.statusCode, 201, response.body);
    const created = await t.as('acme', { method: 'POST', url: `/v1/records/${typeId}`, payload: VALID_LOAN });
    assert.equal(created.statusCode, 201, created.body);
  });

  it("answers a path segment too long for the router with the 404 error body (was Fastify's own 414 body)", async () => {
    expectError(await t.as('acme', { method: 'GET', url: `/v1/records/${'x'.repeat(5000)}` }), 404, 'not_found');
    expectError(await t.admin({ method: 'GET', url: `/admin/v1/companies/${'c'.repeat(3000)}/record-types` }), 404, 'not_found');
  });

  it("answers a path that is not valid percent-encoding with the 404 error body (was Fastify's FST_ERR_BAD_URL body)", async () => {
    for (const segment of ['%zz', '%', '%E0%80', '%ED%A0%80', '%FF']) {
      expectError(await t.as('acme', { method: 'GET', url: `/v1/records/${segment}` }), 404, 'not_found');
      expectError(await t.admin({ method: 'GET', url: `/admin/v1/companies/${segment}/providers` }), 404, 'not_found');
    }
  });

  // On PostgreSQL each of these was a 500: text cannot hold NUL. Lone surrogates were stored as U+FFFD.
  it("answers a NUL in a path segment with 404, as a resource that cannot exist (400 in an operator path's company)", async () => {
    expectError(await t.as('acme', { method: 'GET', url: '/v1/records/a%00' }), 404, 'not_found');
    expectError(await t.as('acme', { method: 'GET', url: '/v1/records/a%00/tokens' }), 404, 'not_found');
    expectError(await t.as('acme', { method: 'GET', url: `/v1/records/${recordId}/files/a%00` }), 404, 'not_found');
    expectError(await t.as('acme', { method: 'DELETE', url: `/v1/records/${recordId}/tokens/a%00` }), 404, 'not_found');
    expectError(await t.admin({ method: 'GET', url: '/admin/v1/companies/acme/templates/a%00' }), 404, 'not_found');
    // A company in an operator path follows the company-ID rule: breaking it is a 400 saying so.
    expectError(await t.admin({ method: 'GET', url: '/admin/v1/companies/a%00b/record-types' }), 400, 'invalid_path');
    await refusedWithoutChange(
      () => t.admin({ method: 'PUT', url: '/admin/v1/companies/a%00b/providers/lob', payload: { api_key: 'test_0dc8d51e0acffcb1880e0f19c79b2f5b0cc' } }),
      400,
      'invalid_path',
    );
  });

  it('answers a NUL in a query parameter with 400 naming it', async () => {
    for (const [url, param] of [
      ['/v1/records?record_type=%00', 'record_type'],
      ['/v1/records?view_id=a%00', 'view_id'],
      ['/v1/records?next=a%00', 'next'],
      ['/v1/checks?mail_type=%00', 'mail_type'],
      ['/v1/events?flow_key=x%00', 'flow_key'],
    ] as const) {
      const response = await t.as('acme', { method: 'GET', url });
      expectError(response, 400, 'invalid_query');
      assert.deepEqual(response.json().invalid_params, [param]);
    }
  });

  it('refuses NUL and unpaired surrogates in JSON bodies with 400 naming the place, storing nothing', async () => {
    const cases: Array<[string, () => Promise<LightMyRequestResponse>]> = [
      ['status', () => t.as('acme', { method: 'PATCH', url: '/v1/records/untyped', payload: { status: 'a\u0000' } })],
      ['status', () => t.as('acme', { method: 'PATCH', url: '/v1/records/untyped', payload: { status: 'a\ud800' } })],
      ['f_borrower', () => t.as('acme', { method: 'POST', url: '/v1/records/loan', payload: { ...VALID_LOAN, f_borrower: 'x\u0000' } })],
      [
        'inputs.template_id',
        () =>
          t.as('acme', {
            method: 'PUT',
            url: `/v1/records/${recordId}/steps`,
            payload: { type: 'pdf_create', inputs: { pdf_filename: 'a', template_id: 'a\u0000' } },
          }),
      ],
      ['name', () => t.admin({ method: 'PUT', url: '/admin/v1/companies/acme/record-types/other', payload: { ...LOAN_TYPE, name: 'a\u0000' } })],
      ['[0].id', () => t.admin({ method: 'POST', url: '/admin/v1/companies/acme/records', payload: [{ id: 'a\u0000', record_type: 'x', status: 'y' }] })],
      // The records import names the record (index, NDJSON line) and the field.
      [
        '[1].status line 2',
        () =>
          t.admin({
            method: 'POST',
            url: '/admin/v1/companies/acme/records',
            headers: { 'content-type': 'application/x-ndjson' },
            payload: '{"record_type":"x","status":"ok"}\n{"record_type":"x","status":"\\udc00"}\n',
          }),
      ],
    ];
    for (const [place, send] of cases) {
      const before = await dataFingerprint(t.ctx.database);
      const response = await send();
      expectError(response, 400, 'invalid_body');
      assert.ok(response.json().message.includes(place), `${place}: ${response.body}`);
      assert.deepEqual(changedTables(before, await dataFingerprint(t.ctx.database)), []);
    }
  });

  it('refuses an ingested event with an unpaired surrogate with 400, storing nothing of the request', async () => {
    await refusedWithoutChange(
      () =>
        t.admin({
          method: 'POST',
          url: '/admin/v1/companies/acme/events',
          headers: { 'content-type': 'application/json' },
          payload: '[{"type":"ok"},{"type":"user_flow_session_started","user_id":"\\ud800"}]',
        }),
      400,
      'invalid_body',
    );
  });

  // Ajv coerces the strings Infinity and 1e400 to Infinity, then skips minimum, maximum and the
  // integer check for it: each reached the database and was a 500.
  it('refuses a number parameter that is not finite (Infinity, -Infinity, 1e400) with 400 naming it, storing nothing', async () => {
    for (const value of ['Infinity', '-Infinity', '1e400', '-9e999']) {
      for (const path of ['/v1/events/changes', '/v1/records', '/v1/checks']) {
        const response = await t.as('acme', { method: 'GET', url: `${path}?limit=${value}` });
        expectError(response, 400, 'invalid_query');
        assert.deepEqual(response.json().invalid_params, ['limit'], response.body);
        assert.match(response.json().message, /'limit' must be integer/);
      }
      await refusedWithoutChange(
        () => t.admin({ method: 'POST', url: '/admin/v1/tokens', payload: { company_id: 'acme', expires_in: value } }),
        400,
        'invalid_body',
      );
    }
    // The step's inputs take any JSON, which Ajv does not descend into.
    const deep = `${'['.repeat(50)}1e400${']'.repeat(50)}`;
    const step = await t.as('acme', {
      method: 'PUT',
      url: `/v1/records/${recordId}/steps`,
      payload: `{"type":"pdf_create","inputs":{"pdf_filename":"a","template_id":"none","deep":${deep}}}`,
      headers: { 'content-type': 'application/json' },
    });
    expectError(step, 400, 'invalid_body');
    assert.match(step.json().message, /field 'inputs\.deep\.0\.0\..*' must be a finite number/);
  });

  // Ajv's coercion takes whatever Number() takes: these were read as 16, 10, 5, 5 and 3.
  it('reads a number query parameter only as plain decimal digits, as GET /v1/events always did', async () => {
    for (const value of ['0x10', '1e1', '%205', '5%20', '3.0', '0b11', '']) {
      for (const path of ['/v1/events/changes', '/v1/records', '/v1/checks', '/v1/events']) {
        const response = await t.as('acme', { method: 'GET', url: `${path}?limit=${value}` });
        expectError(response, 400, 'invalid_query');
        assert.deepEqual(response.json().invalid_params, ['limit'], `${path}?limit=${value}: ${response.body}`);
        assert.match(response.json().message, /'limit' must be (an )?integer/);
      }
    }
    for (const path of ['/v1/events/changes', '/v1/records', '/v1/checks', '/v1/events']) {
      const response = await t.as('acme', { method: 'GET', url: `${path}?limit=010` });
      assert.equal(response.statusCode, 200, `${path}: ${response.body}`);
    }
  });

  // Each was a 500: JSON.stringify (storing the value) or a recursive walk (the idempotency
  // fingerprint, the finite-number check) overflowed the call stack.
  it('refuses JSON nested more than 100 levels deep with 400 naming where, storing nothing', async () => {
    const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    for (const depth of [101, 100_000]) {
      const body = await t.as('acme', {
        method: 'POST',
        url: '/v1/webhooks',
        payload: `{"url":"http://127.0.0.1:9/x","events":["*"],"x":${nested(depth - 1)}}`,
        headers: { 'content-type': 'application/json', 'idempotency-key': `deep-${depth}` },
      });
      expectError(body, 400, 'invalid_body');
      assert.match(body.json().message, /the body nests arrays and objects more than 100 levels deep/);
      for (const [contentType, payload] of [
        ['application/x-ndjson', `{"type":"x","version_object":${nested(depth)}}\n`],
        ['application/json', `[{"type":"x","version_object":${nested(depth)}}]`],
      ]) {
        await refusedWithoutChange(
          async () => {
            const response = await t.admin({ method: 'POST', url: '/admin/v1/companies/acme/events', payload, headers: { 'content-type': contentType } });
            assert.match(response.body, /field 'version_object' nests arrays and objects more than 100 levels deep/);
            return response;
          },
          400,
          'invalid_body',
        );
      }
      await refusedWithoutChange(
        async () => {
          const response = await t.admin({
            method: 'POST',
            url: '/admin/v1/companies/acme/records',
            payload: `[{"record_type":"uccfiling","status":"filed","instance":${nested(depth)}}]`,
            headers: { 'content-type': 'application/json' },
          });
          assert.deepEqual(response.json().errors?.[0]?.field, 'instance', response.body);
          return response;
        },
        400,
        'invalid_body',
      );
    }
    // 100 levels are taken and given back as they were.
    const ingested = await t.admin({
      method: 'POST',
      url: '/admin/v1/companies/deep/events',
      payload: `[{"id":"e100","type":"x","version_object":${nested(100)}}]`,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(ingested.statusCode, 200, ingested.body);
    const listed = await t.as('deep', { method: 'GET', url: '/v1/events' });
    assert.equal(JSON.stringify(listed.json().results[0].version_object), nested(100));
  });

  it('refuses a signed user token whose company_id holds a NUL with 401', async () => {
    const token = await signUserToken({ company_id: 'acme\u0000', sub: 'u1' });
    expectError(await t.app.inject({ method: 'GET', url: '/v1/records', headers: { authorization: `Bearer ${token}` } }), 401, 'unauthorized');
  });
});
