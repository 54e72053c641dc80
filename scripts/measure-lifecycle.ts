/**
 * Measures what an erasure and an offboarding cost the requests served meanwhile (not part of
 * `npm test`; docs/data-lifecycle.md quotes its figures). Run:
 *
 *   npx tsx scripts/measure-lifecycle.ts                                  # SQLite, in a temporary file
 *   WRS_DATABASE_URL=postgres://... npx tsx scripts/measure-lifecycle.ts  # an empty PostgreSQL database
 *   OFFBOARD_WITH=cli npx tsx scripts/measure-lifecycle.ts                # the offboarding by `wrs offboard`, in its own process
 *
 * Both jobs are launched as the operator API launches them (runInBackground), so they run where a
 * serving process runs them: on SQLite in its lifecycle thread, on PostgreSQL beside the requests.
 *
 * Offboarding: company "leaving" holds OFFBOARD_EVENTS events; "other" reads its events (a page
 * of 100, Cache-Control: no-cache so every read reaches the database) alone, then while the
 * offboarding runs. Erasure: "busy" holds ERASED_EVENTS events of one person among others; its
 * own client reads and ingests alone, then while that person is erased.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppContext } from '../src/app-context.js';
import { loadConfig } from '../src/config/config.js';
import { buildApp } from '../src/http/app.js';

const OFFBOARD_EVENTS = Number(process.env.OFFBOARD_EVENTS ?? 200_000);
const ERASED_EVENTS = Number(process.env.ERASED_EVENTS ?? 100_000);
const INGEST_CHUNK = 5000;

const dir = mkdtempSync(join(tmpdir(), 'wrs-lifecycle-'));
const config = loadConfig({
  ...process.env,
  NODE_ENV: 'test',
  WRS_DATABASE_URL: process.env.WRS_DATABASE_URL ?? `sqlite:${join(dir, 'wrs.db')}`,
  WRS_JWT_SECRET: 'measure-secret-0123456789abcdef0123456789abcdef',
  WRS_ADMIN_TOKEN: 'measure-admin-token-0123456789',
  WRS_ENCRYPTION_KEY: '00'.repeat(32),
  WRS_LOG_LEVEL: 'silent',
  WRS_RATE_LIMIT_PER_MINUTE: '0',
});
const ctx = await createAppContext(config);
const app = await buildApp(ctx, { logger: false });
await app.ready();
const admin = { authorization: `Bearer ${config.adminToken}` };
const bearer = async (company: string) => ({ authorization: `Bearer ${(await ctx.tokenSigner.sign({ company_id: company, sub: 'reader' }, 3600)).token}` });

let sequence = 0;
function events(count: number, userOf: (index: number) => string) {
  return Array.from({ length: count }, (_, index) => {
    const at = new Date(Date.UTC(2026, 0, 1) + sequence++ * 1000).toISOString();
    return {
      id: `m-${sequence}`,
      created_at: at,
      updated_at: at,
      type: 'user_flow_step_completed',
      user_id: userOf(index),
      flow_key: 'onboarding',
      excluded: false,
    };
  });
}
async function ingest(company: string, count: number, userOf: (index: number) => string) {
  for (let done = 0; done < count; done += INGEST_CHUNK) {
    const response = await app.inject({
      method: 'POST',
      url: `/admin/v1/companies/${company}/events`,
      headers: admin,
      payload: events(Math.min(INGEST_CHUNK, count - done), userOf),
    });
    if (response.statusCode !== 200) throw new Error(response.body);
  }
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const summary = (values: number[]) => ({ n: values.length, p50: +percentile(values, 0.5).toFixed(2), p95: +percentile(values, 0.95).toFixed(2) });

/** Runs `request` back to back until `until` resolves (or `count` times); answers each latency in ms. */
async function timed(request: () => Promise<unknown>, stop: { count?: number; until?: Promise<unknown> }): Promise<number[]> {
  let finished = false;
  void stop.until?.then(() => (finished = true));
  const latencies: number[] = [];
  while (stop.count === undefined ? !finished : latencies.length < stop.count) {
    const started = performance.now();
    await request();
    latencies.push(performance.now() - started);
  }
  return latencies;
}

/** Launches a job the way the serving process does; resolves once the process's jobs have ended, rejects with the job's error. */
async function inBackground(launch: (onError: (error: unknown) => void) => void): Promise<void> {
  let failure: unknown;
  launch((error) => (failure = error));
  await ctx.lifecycleJobs.settled();
  if (failure !== undefined) throw failure;
}

const reader = (headers: Record<string, string>) => async () => {
  const response = await app.inject({ method: 'GET', url: '/v1/events?limit=100', headers: { ...headers, 'cache-control': 'no-cache' } });
  if (response.statusCode !== 200) throw new Error(response.body);
};

try {
  console.log(`database: ${ctx.database.dialect}, batch rows: ${config.dataLifecycle.batchRows}`);

  // Offboarding.
  let started = performance.now();
  await ingest('leaving', OFFBOARD_EVENTS, (index) => `user-${index % 500}`);
  await ingest('other', 5000, (index) => `user-${index % 50}`);
  console.log(`ingested ${OFFBOARD_EVENTS} events of "leaving" in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const readOther = reader(await bearer('other'));
  await timed(readOther, { count: 50 });
  const alone = await timed(readOther, { count: 400 });
  started = performance.now();
  let offboarding: Promise<unknown>;
  if (process.env.OFFBOARD_WITH === 'cli') {
    const cli = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'offboard', '--company', 'leaving'], {
      env: {
        ...process.env,
        WRS_DATABASE_URL: config.databaseUrl,
        WRS_JWT_SECRET: config.jwt.secret,
        WRS_ADMIN_TOKEN: config.adminToken,
        WRS_ENCRYPTION_KEY: '00'.repeat(32),
        NODE_ENV: 'test',
      },
      stdio: 'inherit',
    });
    offboarding = once(cli, 'exit');
  } else {
    // As the operator API does: the serving process runs it in the background (on SQLite, in its lifecycle thread).
    await ctx.offboardings.request('leaving', 'cli');
    offboarding = inBackground((onError) => ctx.offboardings.runInBackground('leaving', onError));
  }
  const during = await timed(readOther, { until: offboarding });
  await offboarding;
  const report = await ctx.offboardings.get('leaving');
  const offboardSeconds = (performance.now() - started) / 1000;
  console.log(
    `offboarding: ${report.removed.events} events, ${Object.values(report.removed).reduce((a, b) => a + b, 0)} rows, ${report.batches} batches in ${offboardSeconds.toFixed(1)} s`,
  );
  console.log('  other company reads alone ', summary(alone));
  console.log('  other company reads during', summary(during));
  console.log(
    `  ratio p50 ${(percentile(during, 0.5) / percentile(alone, 0.5)).toFixed(2)}, p95 ${(percentile(during, 0.95) / percentile(alone, 0.95)).toFixed(2)}`,
  );

  // Erasure, with the same company's reads and ingests going on.
  await ingest('busy', ERASED_EVENTS, () => 'erased-person');
  await ingest('busy', 20_000, (index) => `user-${index % 200}`);
  const busy = await bearer('busy');
  const readBusy = reader(busy);
  const ingestBusy = async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/admin/v1/companies/busy/events',
      headers: admin,
      payload: events(100, (index) => `user-${index}`),
    });
    if (response.statusCode !== 200) throw new Error(response.body);
  };
  const readsAlone = await timed(readBusy, { count: 300 });
  const ingestsAlone = await timed(ingestBusy, { count: 100 });
  const { erasure } = await ctx.erasures.request('busy', { user_id: 'erased-person' }, 'cli');
  started = performance.now();
  const erasing = inBackground((onError) => ctx.erasures.runInBackground('busy', erasure.id, onError)).then(() => ctx.erasures.get('busy', erasure.id));
  const [readsDuring, ingestsDuring, done] = await Promise.all([timed(readBusy, { until: erasing }), timed(ingestBusy, { until: erasing }), erasing]);
  console.log(`erasure: ${done.removed.events} events in ${done.batches} batches, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  console.log('  same company reads alone   ', summary(readsAlone));
  console.log('  same company reads during  ', summary(readsDuring));
  console.log('  same company ingests alone ', summary(ingestsAlone));
  console.log('  same company ingests during', summary(ingestsDuring));
  console.log(
    `  ratio reads p50 ${(percentile(readsDuring, 0.5) / percentile(readsAlone, 0.5)).toFixed(2)}, ingests p50 ${(percentile(ingestsDuring, 0.5) / percentile(ingestsAlone, 0.5)).toFixed(2)}`,
  );
} finally {
  await app.close();
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
}
