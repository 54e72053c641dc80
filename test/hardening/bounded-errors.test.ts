import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { bodyChecker } from '../../src/http/body-check.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType, expectStatus, VALID_LOAN } from '../records/fixtures.js';

/** An answer that lists what the input got wrong stays small however much the input got wrong. */
const MAX_ERROR_BYTES = 16_384;

const manyKeys = (count: number, value: unknown = 1, prefix = 'unknown_key_') =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}`, value]));

describeEachDatabase('error bodies name what is wrong, and stay bounded', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
    await defineType(t, 'acme', 'loan');
  });
  after(() => t.close());

  describe('enums name their values', () => {
    it('a bad order_by names the fields it may order by', async () => {
      const body = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/events?order_by=bogus' }), 400, 'invalid_query');
      assert.deepEqual(body.invalid_params, ['order_by']);
      assert.match(body.message, /^query parameter 'order_by' must be one of: .*\bcreated_at, -created_at\b/);
      assert.ok(body.message.includes('flow_session, -flow_session'), body.message);
      assert.ok(!body.message.includes('allowed values'), body.message);
    });

    it('a union of constants names each constant (a query parameter of the checks list)', async () => {
      const response = await t.as('acme', { method: 'GET', url: '/v1/checks?sort_by%5Bdate_created%5D=up' });
      const body = expectStatus(response, 400, 'invalid_query');
      assert.equal(body.message, "query parameter 'sort_by[date_created]' must be one of: asc, desc");
    });

    it('a body enum names its values too, once however many branches failed', () => {
      const check = bodyChecker(Type.Object({ direction: Type.Union([Type.Literal('in'), Type.Literal('out'), Type.Null()]) }));
      assert.throws(() => check({ direction: 'sideways' }, 'body'), { message: "invalid body: field 'direction' must be one of: in, out, null" });
      assert.deepEqual(check({ direction: 'in' }, 'body'), { direction: 'in' });
    });
  });

  describe('lists from the input are cut at 100, with the total', () => {
    it('75,000 unknown keys in a record create: 100 listed, all counted, a small answer', async () => {
      const response = await t.as('acme', { method: 'POST', url: '/v1/records/loan', payload: { ...VALID_LOAN, ...manyKeys(75_000, 1, 'k') } });
      const body = expectStatus(response, 400, 'validation_failed');
      assert.ok(response.body.length < MAX_ERROR_BYTES, `${response.body.length} bytes`);
      assert.equal(body.invalid_fields.length, 100);
      assert.equal(body.invalid_fields[0], 'k0');
      assert.deepEqual(body.required_fields, []);
      assert.deepEqual(body.type_errors, []);
      assert.equal(body.error_count, 75_000);
      assert.match(body.message, /^record validation failed: 75000 unknown field ID\(s\): k0, k1, .* and 74900 more$/);
    });

    it('the three lists of a record are each bounded, and the message totals each', async () => {
      const fields = Array.from({ length: 150 }, (_, i) => ({ uid: `f${i}`, field_name: `Field ${i}`, type: 'string', required: true }));
      await defineType(t, 'acme', 'wide', { name: 'Wide', fields, statuses: ['new'], views: [] });
      const missing = expectStatus(await t.as('acme', { method: 'POST', url: '/v1/records/wide', payload: manyKeys(120) }), 400, 'validation_failed');
      assert.deepEqual([missing.invalid_fields.length, missing.required_fields.length, missing.type_errors.length], [100, 100, 0]);
      assert.equal(missing.error_count, 270);
      assert.match(
        missing.message,
        /^record validation failed: 120 unknown field ID\(s\): .* and 20 more; 150 missing required field\(s\): Field 0 \(f0\), .* and 50 more$/,
      );
      const numbers = Object.fromEntries(fields.map((field) => [field.uid, 7]));
      const wrong = expectStatus(await t.as('acme', { method: 'POST', url: '/v1/records/wide', payload: numbers }), 400, 'validation_failed');
      assert.deepEqual([wrong.invalid_fields.length, wrong.required_fields.length, wrong.type_errors.length], [0, 0, 100]);
      assert.deepEqual(wrong.type_errors[0], { uid: 'f0', field_name: 'Field 0', expected: 'string' });
      assert.equal(wrong.error_count, 150);
      assert.match(wrong.message, /150 wrong type\(s\): .* and 50 more$/);
    });

    it('unknown fields of a schema-checked body', async () => {
      const response = await t.admin({ method: 'POST', url: '/admin/v1/tokens', payload: { company_id: 'acme', ...manyKeys(5000) } });
      const body = expectStatus(response, 400, 'invalid_body');
      assert.ok(response.body.length < MAX_ERROR_BYTES, `${response.body.length} bytes`);
      assert.match(body.message, /^invalid body: unknown field 'unknown_key_0'; .* and 4900 more$/);
      assert.equal(body.message.match(/unknown field/g).length, 100);
    });

    it("unknown fields of bodies the domain checks: a record token, a step's inputs, a record type definition", async () => {
      const recordId = (await createRecord(t, 'acme', 'loan')).id;
      const longName = 'k'.repeat(100_000);
      const cases = [
        ['invalid token request', () => t.as('acme', { method: 'POST', url: `/v1/records/${recordId}/tokens`, payload: { ...manyKeys(5000), [longName]: 1 } })],
        [
          'invalid pdf_create inputs',
          () =>
            t.as('acme', {
              method: 'PUT',
              url: `/v1/records/${recordId}/steps`,
              payload: { type: 'pdf_create', inputs: { ...manyKeys(5000), [longName]: 1 } },
            }),
        ],
        [
          'invalid record type definition',
          () =>
            t.admin({
              method: 'PUT',
              url: '/admin/v1/companies/acme/record-types/many',
              payload: { name: 'Many', ...manyKeys(3000), [longName]: 1, fields: Array.from({ length: 2000 }, () => ({ type: 'x'.repeat(300) })) },
            }),
        ],
      ] as const;
      for (const [prefix, send] of cases) {
        const response = await send();
        const body = expectStatus(response, 400, 'invalid_body');
        assert.ok(response.body.length < MAX_ERROR_BYTES, `${prefix}: ${response.body.length} bytes`);
        assert.match(body.message, new RegExp(`^${prefix}: .* and \\d+ more$`));
        assert.ok(!body.message.includes('k'.repeat(300)), `${prefix}: a long name is cut short`);
      }
    });

    it('unknown query parameters', async () => {
      const query = Array.from({ length: 500 }, (_, i) => `nope_${i}=1`).join('&');
      const response = await t.as('acme', { method: 'GET', url: `/v1/events?${query}` });
      const body = expectStatus(response, 400, 'invalid_query');
      assert.ok(response.body.length < MAX_ERROR_BYTES, `${response.body.length} bytes`);
      assert.equal(body.invalid_params.length, 100);
      assert.equal(body.invalid_params[99], 'nope_99');
      assert.match(body.message, /^unknown query parameter 'nope_0'; .* and 400 more$/);
    });

    it('NUL characters in a body and in query parameters', async () => {
      const response = await t.admin({ method: 'POST', url: '/admin/v1/tokens', payload: { company_id: 'acme', ...manyKeys(300, 'a\u0000b') } });
      const body = expectStatus(response, 400, 'invalid_body');
      assert.match(body.message, /found at unknown_key_0, unknown_key_1, .* and 200 more$/);
      const query = Array.from({ length: 150 }, (_, i) => `q${i}=%00`).join('&');
      const refused = expectStatus(await t.as('acme', { method: 'GET', url: `/v1/events?${query}` }), 400, 'invalid_query');
      assert.equal(refused.invalid_params.length, 100);
      assert.match(refused.message, / and 50 more$/);
    });

    it('a long unknown name is cut short in the message', async () => {
      const name = 'k'.repeat(100_000);
      const response = await t.as('acme', { method: 'POST', url: '/v1/records/loan', payload: { ...VALID_LOAN, [name]: 1 } });
      const body = expectStatus(response, 400, 'validation_failed');
      assert.ok(body.message.length < 1000, `${body.message.length} characters`);
      assert.deepEqual(body.invalid_fields, [name]);
    });
  });
});
