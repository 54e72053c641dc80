import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { seedDemo, seedDemoIntoEmptyDatabase } from '../../src/demo/seed-demo.js';
import { ManualClock } from '../../src/lib/clock.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { cliEnv } from '../helpers/cli-process.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, ingestOk, listEvents, listIds } from './event-fixtures.js';

const DEMO = 'demo-company';

describeEachDatabase('demo events', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind, { clock: new ManualClock('2026-11-21T12:00:00.000Z') });
  });
  after(() => t.close());

  it('seeds a demo company into an empty database, and only once', async () => {
    assert.equal(await seedDemoIntoEmptyDatabase(t.ctx, DEMO), true);
    const events = (await listEvents(t, DEMO, 'limit=10000')).json().results as Record<string, unknown>[];
    assert.ok(events.length >= 200 && events.length <= 1000, `${events.length} events`);
    const distinct = (field: string) => new Set(events.map((event) => event[field]).filter((value) => value !== null));
    assert.ok(distinct('flow_key').size >= 3);
    assert.ok(distinct('step_key').size >= 8);
    assert.ok(distinct('user_id').size >= 5);
    assert.ok(distinct('flow_session').size >= 10);
    assert.ok(distinct('selected_decision').size >= 3);
    for (const type of ['user_flow_session_started', 'user_flow_step_completed', 'user_flow_decision_selected', 'user_flow_session_completed']) {
      assert.ok(distinct('type').has(type), type);
    }
    assert.ok(events.every((event) => (event.created_at as string) <= '2026-11-21T12:00:00.000Z'));
    assert.ok(events.some((event) => event.version_object !== undefined));

    // The requests the welcome screen suggests find something.
    assert.ok((await listIds(t, DEMO, 'type=user_flow_session_started&limit=5&order_by=-created_at')).length === 5);
    assert.ok((await listIds(t, DEMO, 'flow_key__contains=onboard&flow_session__gte=2')).length > 0);

    assert.equal(await seedDemoIntoEmptyDatabase(t.ctx, DEMO), false);
    assert.deepEqual(await seedDemo(t.ctx, DEMO), { events: 0, records: 0, checks: 0, templates: 0 });
    const checks = await t.as(DEMO, { method: 'GET', url: '/v1/checks?limit=100' });
    assert.equal(checks.statusCode, 200);
    assert.equal(checks.json().count, 12, 'the demo company has its checks, once');
    assert.equal((await listEvents(t, DEMO, 'limit=10000')).json().count, events.length);
  });

  it('does not seed a database where a company has data', async () => {
    const other = await createTestApp(kind);
    try {
      await ingestOk(other, 'real-customer', [anEvent()]);
      assert.equal(await seedDemoIntoEmptyDatabase(other.ctx, DEMO), false);
      assert.equal((await listEvents(other, DEMO)).json().count, 0);
    } finally {
      await other.close();
    }
  });
});

describe('wrs import events / wrs seed demo', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  // The commands' logic, run in this process: the CLI's start as a process has tests of its own (test/cli).
  const wrs = (...args: string[]) => runCliInProcess(args, env);

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'wrs-cli-'));
    env = cliEnv(join(dir, 'wrs.db'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('imports NDJSON and JSON-array files, reports the rate, and refuses a bad file whole', async () => {
    const ndjson = join(dir, 'events.ndjson');
    writeFileSync(ndjson, `${Array.from({ length: 2500 }, (_, i) => JSON.stringify(anEvent({ id: `n-${i}` }))).join('\n')}\n`);
    const array = join(dir, 'events.json');
    writeFileSync(
      array,
      `\n  ${JSON.stringify(
        Array.from({ length: 30 }, (_, i) => anEvent({ id: `a-${i}` })),
        null,
        2,
      )}`,
    );
    const bad = join(dir, 'bad.ndjson');
    writeFileSync(bad, `${JSON.stringify(anEvent({ id: 'ok' }))}\n{"type":"x","flow_session":"7"}\n`);

    // Importing works on an existing database (serve, migrate or seed demo create one).
    const migrated = await wrs('migrate');
    assert.equal(migrated.status, 0, migrated.stderr);
    const first = await wrs('import', 'events', ndjson, '--company', 'cli-co');
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /imported 2,500 events into company "cli-co" in [\d.]+ s \([\d,]+ events\/s\)/);
    const second = await wrs('import', 'events', array, '--company', 'cli-co');
    assert.equal(second.status, 0, second.stderr);
    assert.match(second.stdout, /imported 30 events/);
    const refused = await wrs('import', 'events', bad, '--company', 'cli-co');
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /nothing was stored: 1 problem\(s\): \[1\]\.flow_session line 2: field 'flow_session'/);
    const usage = await wrs('import', 'events', ndjson);
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /--company is required/);

    const seeded = await wrs('seed', 'demo');
    assert.equal(seeded.status, 0, seeded.stderr);
    assert.match(seeded.stdout, /demo data for company "demo-company": added \d+ events/);

    const t = await createTestApp('sqlite', { env: { WRS_DATABASE_URL: env.WRS_DATABASE_URL! } });
    try {
      assert.equal((await listEvents(t, 'cli-co', 'limit=10000')).json().count, 2530);
      assert.deepEqual(await listIds(t, 'cli-co', 'type=x'), []);
      assert.ok((await listEvents(t, DEMO)).json().count > 0);
    } finally {
      await t.close();
    }
  });
});
