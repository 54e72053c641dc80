import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType, expectStatus, LOAN_TYPE } from '../records/fixtures.js';
import { anEvent, ingestOk } from './event-fixtures.js';

describeEachDatabase('GET /v1/event-types: the types a company has, with counts', (kind) => {
  let t: TestApp;
  const typesOf = async (company: string) => {
    const response = await t.as(company, { method: 'GET', url: '/v1/event-types' });
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as { count: number; results: { type: string; count: number }[] };
  };

  before(async () => {
    t = await createTestApp(kind);
    await ingestOk(t, 'alpha', [
      anEvent({ id: 'a1', type: 'user_flow_step_completed' }),
      anEvent({ id: 'a2', type: 'user_flow_session_started' }),
      anEvent({ id: 'a3', type: 'user_flow_step_completed' }),
      anEvent({ id: 'a4', type: 'Zeta.custom' }),
      anEvent({ id: 'a5', type: 'user_flow_step_completed' }),
    ]);
    await ingestOk(t, 'beta', [anEvent({ id: 'b1', type: 'beta_only' })]);
  });
  after(() => t.close());

  it('answers every type of the company once, ordered by type (by code point), with how many events it has', async () => {
    assert.deepEqual(await typesOf('alpha'), {
      count: 3,
      results: [
        { type: 'Zeta.custom', count: 1 },
        { type: 'user_flow_session_started', count: 1 },
        { type: 'user_flow_step_completed', count: 3 },
      ],
    });
  });

  it('counts an event replaced by a re-ingest of its id once, and follows a type change', async () => {
    await ingestOk(t, 'alpha', [anEvent({ id: 'a4', type: 'user_flow_session_started' })]);
    assert.deepEqual((await typesOf('alpha')).results, [
      { type: 'user_flow_session_started', count: 2 },
      { type: 'user_flow_step_completed', count: 3 },
    ]);
  });

  it("shows no other company's types, and an empty list to a company without events", async () => {
    assert.deepEqual(await typesOf('beta'), { count: 1, results: [{ type: 'beta_only', count: 1 }] });
    assert.deepEqual(await typesOf('nobody'), { count: 0, results: [] });
  });

  it('refuses a query parameter, a missing token and a record token', async () => {
    const withQuery = await t.as('alpha', { method: 'GET', url: '/v1/event-types?type=x' });
    assert.equal(withQuery.statusCode, 400, withQuery.body);
    assert.equal((await t.app.inject({ method: 'GET', url: '/v1/event-types' })).statusCode, 401);
    await defineType(t, 'alpha', 'loan', LOAN_TYPE);
    const loan = await createRecord(t, 'alpha', 'loan');
    const { token } = expectStatus(await t.as('alpha', { method: 'POST', url: `/v1/records/${loan.id}/tokens`, payload: { expires_in: 60 } }), 201);
    const withRecordToken = await t.app.inject({ method: 'GET', url: '/v1/event-types', headers: { authorization: `Bearer ${token}` } });
    assert.equal(withRecordToken.statusCode, 403, withRecordToken.body);
  });
});
