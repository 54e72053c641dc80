// A company's profile (display name, support email): set by the operator, read by a record
// token with its record's type (what the hosted form shows), hidden from everything else.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType, expectStatus } from '../records/fixtures.js';

describeEachDatabase('company profile', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
  });
  after(() => t.close());

  const profile = (company: string, method: 'GET' | 'PATCH' = 'GET', payload?: object) =>
    t.admin({ method, url: `/admin/v1/companies/${company}/profile`, ...(payload ? { payload } : {}) });

  it('is empty until set; sets, trims, keeps what is not sent and clears with null', async () => {
    assert.deepEqual(expectStatus(await profile('prof-a'), 200), { company_id: 'prof-a', display_name: null, support_email: null });
    const set = expectStatus(await profile('prof-a', 'PATCH', { display_name: '  Acme Equipment Finance ', support_email: 'loans@acme.example' }), 200);
    assert.deepEqual(set, { company_id: 'prof-a', display_name: 'Acme Equipment Finance', support_email: 'loans@acme.example' });
    assert.deepEqual(expectStatus(await profile('prof-a'), 200), set);

    const renamed = expectStatus(await profile('prof-a', 'PATCH', { display_name: 'Acme Finance' }), 200);
    assert.equal(renamed.support_email, 'loans@acme.example', 'an absent value is left as it is');
    const cleared = expectStatus(await profile('prof-a', 'PATCH', { support_email: null }), 200);
    assert.deepEqual(cleared, { company_id: 'prof-a', display_name: 'Acme Finance', support_email: null });
    assert.deepEqual(expectStatus(await profile('prof-b'), 200).display_name, null, 'another company has its own');
  });

  it('keeps the retention period beside it, and the retention keeps the profile', async () => {
    expectStatus(await t.admin({ method: 'PUT', url: '/admin/v1/companies/prof-r/retention', payload: { retention_days: 9 } }), 200);
    expectStatus(await profile('prof-r', 'PATCH', { display_name: 'Retained Ltd' }), 200);
    expectStatus(await t.admin({ method: 'DELETE', url: '/admin/v1/companies/prof-r/retention' }), 200);
    assert.equal(expectStatus(await profile('prof-r'), 200).display_name, 'Retained Ltd');
    expectStatus(await t.admin({ method: 'PUT', url: '/admin/v1/companies/prof-r/retention', payload: { retention_days: 12 } }), 200);
    assert.equal(expectStatus(await profile('prof-r'), 200).display_name, 'Retained Ltd');
  });

  it('refuses bad values with a 400 naming each, and changes nothing', async () => {
    expectStatus(await profile('prof-bad', 'PATCH', { display_name: 'Good Name', support_email: 'help@good.example' }), 200);
    const cases: Array<[object, RegExp]> = [
      [{ support_email: 'not-an-email' }, /'support_email' must be an email address such as help@example.com \(got "not-an-email"\)/],
      [{ support_email: 'a b@example.com' }, /'support_email' must be an email address/],
      [{ support_email: 'help@example' }, /'support_email' must be an email address/],
      [{ support_email: `${'x'.repeat(250)}@example.com` }, /'support_email' must be at most 254 characters \(has 262\)/],
      [{ display_name: '   ' }, /'display_name' must not be empty \(send null to clear it\)/],
      [{ display_name: 'x'.repeat(121) }, /'display_name' must be at most 120 characters \(has 121\)/],
      [{ display_name: 'Tab\there' }, /'display_name' must hold visible characters only/],
      [{ display_name: '', support_email: '@' }, /'display_name' must not be empty.*; 'support_email' must be an email address/],
    ];
    for (const [body, message] of cases) {
      const refused = expectStatus(await profile('prof-bad', 'PATCH', body), 400, 'invalid_body');
      assert.match(refused.message, message, JSON.stringify(body));
    }
    for (const body of [{}, { display_name: { name: 'A' } }, { display_name: 'A', extra: true }, { support_email: 'x'.repeat(600) }]) {
      expectStatus(await profile('prof-bad', 'PATCH', body), 400, 'invalid_body');
    }
    assert.deepEqual(expectStatus(await profile('prof-bad'), 200), { company_id: 'prof-bad', display_name: 'Good Name', support_email: 'help@good.example' });
    expectStatus(await t.as('prof-bad', { method: 'GET', url: '/admin/v1/companies/prof-bad/profile' }), 401);
  });

  it("reaches a record token with its record's type, and no company user nor other route", async () => {
    await defineType(t, 'prof-form', 'loan');
    const record = await createRecord(t, 'prof-form', 'loan');
    const minted = expectStatus(await t.as('prof-form', { method: 'POST', url: `/v1/records/${record.id}/tokens`, payload: { fields: ['f_amount'] } }), 201);
    const withToken = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${minted.token}` } });

    assert.deepEqual(expectStatus(await withToken('/v1/record-types/loan'), 200).company, { display_name: null, support_email: null });
    expectStatus(await profile('prof-form', 'PATCH', { display_name: 'Acme Equipment Finance', support_email: 'loans@acme.example' }), 200);
    const seen = expectStatus(await withToken('/v1/record-types/loan'), 200);
    assert.deepEqual(seen.company, { display_name: 'Acme Equipment Finance', support_email: 'loans@acme.example' });
    assert.deepEqual(
      seen.fields.map((field: { uid: string }) => field.uid),
      ['f_amount'],
    );

    const staff = expectStatus(await t.as('prof-form', { method: 'GET', url: '/v1/record-types/loan' }), 200);
    assert.equal('company' in staff, false, 'a company user reads the type as it is');
    expectStatus(await withToken('/admin/v1/companies/prof-form/profile'), 401);
    expectStatus(await withToken('/v1/record-types'), 403);
  });
});
