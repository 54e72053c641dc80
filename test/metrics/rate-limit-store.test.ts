// The rate-limit store failures counter: Redis unreachable, requests served uncounted (fail open).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { anonymous, createLimitedApp, deadPort, uniquePrefix, type LimitedApp } from '../ratelimit/redis-apps.js';
import { scrape } from './exposition.js';

describe('rate-limit store failure metrics', () => {
  let t: LimitedApp;
  before(async () => {
    t = await createLimitedApp('sqlite', { perCompany: 1, perAddress: 1, redisUrl: `redis://127.0.0.1:${await deadPort()}`, prefix: uniquePrefix() });
  });
  after(() => t?.close());

  it('counts each request served uncounted because Redis did not answer; the scrape itself is not one', async () => {
    assert.equal((await scrape(t)).value('wrs_rate_limit_store_failures_total'), 0);
    for (let i = 0; i < 3; i++) assert.equal((await anonymous(t, '198.51.100.7')).statusCode, 200);
    const exposition = await scrape(t);
    assert.equal(t.storeErrors.length, 3);
    assert.equal(exposition.value('wrs_rate_limit_store_failures_total'), 3);
  });
});
