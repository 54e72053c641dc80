import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../src/lib/clock.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, signUserToken, type TestApp } from '../helpers/test-app.js';

// The verifier remembers tokens it already verified; the time claims must still hold on every use.
describeEachDatabase('verified-token cache', (kind) => {
  const clock = new ManualClock('2026-11-21T12:00:00.000Z');
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind, { clock });
  });
  after(() => t.close());

  const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
  const get = (token: string) => t.app.inject({ method: 'GET', url: '/v1/events', headers: { authorization: `Bearer ${token}` } });

  it('refuses a once-accepted token after it expires', async () => {
    clock.set('2026-11-21T12:00:00.000Z');
    const token = await signUserToken({ company_id: 'c1', sub: 'u1', exp: seconds('2026-11-21T12:01:00.000Z') });
    assert.equal((await get(token)).statusCode, 200);
    assert.equal((await get(token)).statusCode, 200);
    clock.advanceSeconds(61);
    const expired = await get(token);
    assert.equal(expired.statusCode, 401);
    assert.equal(expired.json().message, 'bearer token has expired');
  });

  it('refuses a cached token before nbf when the clock goes back', async () => {
    clock.set('2026-11-21T13:00:00.000Z');
    const token = await signUserToken({ company_id: 'c1', sub: 'u1', nbf: seconds('2026-11-21T13:00:00.000Z') });
    assert.equal((await get(token)).statusCode, 200);
    clock.set('2026-11-21T12:59:00.000Z');
    assert.equal((await get(token)).statusCode, 401);
  });

  it('never caches a refused token', async () => {
    const forged = await signUserToken({ company_id: 'c1' }, { secret: 'another-secret-0123456789abcdef0123456789' });
    assert.equal((await get(forged)).statusCode, 401);
    assert.equal((await get(forged)).statusCode, 401);
  });
});
