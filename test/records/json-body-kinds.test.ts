import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType, LOAN_TYPE } from './fixtures.js';

/**
 * Every route that takes a JSON body, sent a JSON value of the wrong kind (the contract: a
 * body that is not an object is a 400 naming what is wrong). Routes that take an array (the
 * operator imports) are sent the other kinds. Nothing is stored.
 */
const NOT_OBJECTS = ['null', '[]', '[{"expires_in": 60}]', '"text"', '42', 'true'];
const NOT_ARRAYS = ['null', '{}', '"text"', '42', 'false'];

describeEachDatabase('JSON bodies of the wrong kind', (kind) => {
  let t: TestApp;
  let recordId: string;

  before(async () => {
    t = await createTestApp(kind);
    await defineType(t, 'acme', 'loan', LOAN_TYPE);
    recordId = (await createRecord(t, 'acme', 'loan')).id;
  });
  after(() => t.close());

  const send = async (who: 'user' | 'operator', method: InjectOptions['method'], url: string, payload: string) => {
    const options = { method, url, payload, headers: { 'content-type': 'application/json' } };
    return who === 'user' ? t.as('acme', options) : t.admin(options);
  };

  const expectRefused = async (who: 'user' | 'operator', method: InjectOptions['method'], url: string, payload: string, expected: RegExp) => {
    const response = await send(who, method, url, payload);
    assert.equal(response.statusCode, 400, `${method} ${url} with ${payload}: ${response.body}`);
    const body = response.json();
    assert.equal(body.code, 'invalid_body', response.body);
    assert.match(body.message, expected, `${method} ${url} with ${payload}`);
  };

  it('refuses null as a record token request, on /tokens and /actions, and mints nothing', async () => {
    for (const path of ['tokens', 'actions']) {
      const response = await send('user', 'POST', `/v1/records/${recordId}/${path}`, 'null');
      assert.equal(response.statusCode, 400, response.body);
      assert.deepEqual(response.json(), { message: 'the request body must be a JSON object, not null', code: 'invalid_body' });
    }
    const live = await t.as('acme', { method: 'GET', url: `/v1/records/${recordId}/tokens` });
    assert.equal(live.json().count, 0);
  });

  it('still mints with no body at all, or an empty object', async () => {
    const bare = await t.as('acme', { method: 'POST', url: `/v1/records/${recordId}/tokens` });
    assert.equal(bare.statusCode, 201, bare.body);
    assert.equal((await send('user', 'POST', `/v1/records/${recordId}/tokens`, '{}')).statusCode, 201);
  });

  it('names the kind of a non-object body on the /v1 routes', async () => {
    const routes: Array<[InjectOptions['method'], string]> = [
      ['POST', `/v1/records/${recordId}/tokens`],
      ['POST', `/v1/records/${recordId}/actions`],
      ['POST', '/v1/records/loan'],
      ['PATCH', `/v1/records/${recordId}`],
    ];
    const kinds: Record<string, RegExp> = {
      null: /must be a JSON object, not null$/,
      '[]': /must be a JSON object, not an array$/,
      '[{"expires_in": 60}]': /must be a JSON object, not an array$/,
      '"text"': /must be a JSON object, not a string$/,
      '42': /must be a JSON object, not a number$/,
      true: /must be a JSON object, not a boolean$/,
    };
    for (const [method, url] of routes) {
      for (const payload of NOT_OBJECTS) await expectRefused('user', method, url, payload, kinds[payload]!);
    }
    for (const payload of NOT_OBJECTS) await expectRefused('user', 'PUT', `/v1/records/${recordId}/steps`, payload, /body must be object/);
  });

  it('refuses a non-object body on the operator routes that take an object', async () => {
    for (const payload of NOT_OBJECTS) {
      await expectRefused('operator', 'POST', '/admin/v1/tokens', payload, /body must be object/);
      await expectRefused('operator', 'PUT', '/admin/v1/companies/acme/record-types/other', payload, /must be a JSON object, not /);
      await expectRefused('operator', 'PUT', '/admin/v1/companies/acme/templates/invoice', payload, /body must be object/);
      await expectRefused('operator', 'PUT', '/admin/v1/companies/acme/providers/lob', payload, /body must be object/);
    }
  });

  it('refuses a body that is not an array on the operator imports', async () => {
    for (const payload of NOT_ARRAYS) {
      await expectRefused('operator', 'POST', '/admin/v1/companies/acme/events', payload, /array/);
      await expectRefused('operator', 'POST', '/admin/v1/companies/acme/records', payload, /array/);
      await expectRefused('operator', 'POST', '/admin/v1/companies/acme/checks', payload, /array/);
    }
  });

  it('stored nothing for any of the refused bodies', async () => {
    const records = await t.as('acme', { method: 'GET', url: '/v1/records' });
    assert.deepEqual(
      records.json().results.map((record: { id: string }) => record.id),
      [recordId],
    );
    assert.equal((await t.admin({ method: 'GET', url: '/admin/v1/companies/acme/record-types/other' })).statusCode, 404);
    assert.equal((await t.admin({ method: 'GET', url: '/admin/v1/companies/acme/templates/invoice' })).statusCode, 404);
    assert.equal((await t.as('acme', { method: 'GET', url: '/v1/events' })).json().count, 0);
  });
});
