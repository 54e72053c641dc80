import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { seedDemoChecks } from '../../src/demo/demo-checks.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
before(async () => {
  t = await createTestApp('sqlite');
});
after(() => t.close());

it('seeds valid demo checks that list with every filter kind', async () => {
  const clock = new ManualClock('2026-11-21T12:00:00.000Z');
  assert.equal(await seedDemoChecks({ checks: t.ctx.checks, clock }, 'demo'), 12);
  const all = (await t.as('demo', { method: 'GET', url: '/v1/checks' })).json();
  assert.equal(all.count, 12);
  const scheduled = (await t.as('demo', { method: 'GET', url: '/v1/checks?scheduled=true' })).json();
  assert.equal(scheduled.count, 3);
  const nextDayAir = (await t.as('demo', { method: 'GET', url: '/v1/checks?mail_type=ups_next_day_air' })).json();
  assert.equal(nextDayAir.count, 4);
  assert.ok(all.results.every((check: { date_created: string }) => check.date_created < '2026-11-21T12:00:00.000Z'));
});
