import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { postNdjson, jsonRequest } from './http-client.js';
import type { ScenarioRow } from './report.js';

/**
 * What partitioned events cost and spare (issue 49, docs/data-lifecycle.md): an ingest into the
 * table once it holds the whole data set, against the load's ingest that started from an empty
 * one, and retention removing one month of events. Run at any size with `--events N`; the deep
 * page at that size is the events-deep scenario.
 */
export interface PartitionContext {
  readonly baseUrl: string;
  readonly adminToken: string;
  readonly databaseUrl: string;
  readonly dbKind: string;
  readonly smoke: boolean;
  /** The load's ingest into the empty table: the row whose events/s the ingest into the full one is held to. */
  readonly emptyIngest: ScenarioRow | undefined;
  /** Runs `wrs` with these arguments against the service's database, as the operator would. */
  readonly runCli: (args: readonly string[]) => string;
}

const DAY_MS = 86_400_000;

function events(prefix: string, count: number, firstAt: number, spanMs: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => {
    const at = new Date(firstAt + Math.floor((i * spanMs) / count)).toISOString();
    return {
      id: `${prefix}-${i}`,
      type: 'user_flow_step_completed',
      created_at: at,
      updated_at: at,
      flow_key: `flow-${i % 40}`,
      step_key: `step-${i % 12}`,
      user_id: `user-${i % 500}`,
      flow_session: i,
    };
  });
}

export async function partitionScenarios(ctx: PartitionContext): Promise<ScenarioRow[]> {
  const rows: ScenarioRow[] = [];
  const count = ctx.smoke ? 500 : 200_000;
  const admin = (company: string, path: string) => `${ctx.baseUrl}/admin/v1/companies/${company}${path}`;

  const started = performance.now();
  const ingested = await postNdjson(admin('bench-ingest-full', '/events'), ctx.adminToken, events('full', count, Date.now() - DAY_MS, DAY_MS));
  if (ingested.status !== 200) throw new Error(`ingest into the full table failed with ${ingested.status}: ${ingested.body.slice(0, 300)}`);
  const seconds = (performance.now() - started) / 1000;
  const rate = count / seconds;
  const empty = ctx.emptyIngest?.value;
  rows.push({
    name: 'ingest into the table already holding the data set',
    unit: 'events/s',
    value: rate,
    detail: `${count} events in ${seconds.toFixed(1)} s${empty ? `; ${(rate / empty).toFixed(2)}x the load's ingest from an empty table` : ''}`,
    ...(empty ? { target: '>= 0.85x the ingest from empty', met: rate >= 0.85 * empty } : {}),
  });

  // One month of a company, before the data set's first (bench/lib/data.ts) and past its 30-day
  // period. On PostgreSQL the month gets its partition as an upgraded database has one for each
  // month holding events (migration 0022).
  const month = new Date(Date.UTC(2026, 2, 1));
  const next = new Date(Date.UTC(2026, 3, 1));
  if (ctx.dbKind === 'postgres') await monthPartition(ctx.databaseUrl, month.toISOString().slice(0, 7), next.toISOString().slice(0, 7));
  const old = await postNdjson(
    admin('bench-retention', '/events'),
    ctx.adminToken,
    events('old', count, month.getTime(), next.getTime() - month.getTime() - 1),
  );
  if (old.status !== 200) throw new Error(`ingest of the old month failed with ${old.status}: ${old.body.slice(0, 300)}`);
  const set = await jsonRequest('PUT', admin('bench-retention', '/retention'), ctx.adminToken, { retention_days: 30 });
  if (set.status !== 200) throw new Error(`setting the retention failed with ${set.status}`);
  const sweepStarted = performance.now();
  const outcome = JSON.parse(ctx.runCli(['retention', 'sweep', '--json'])) as { removed: number };
  const sweepSeconds = (performance.now() - sweepStarted) / 1000;
  rows.push({
    name: 'retention of one month (wrs retention sweep)',
    unit: 's',
    value: sweepSeconds,
    detail: `${outcome.removed} events removed in ${sweepSeconds.toFixed(2)} s, the command's start included${ctx.dbKind === 'postgres' ? ', a whole partition' : ', by batches'}`,
    ...(outcome.removed === count ? {} : { met: false, target: `${count} events removed` }),
  });
  return rows;
}

/** The month's partition, made as the service makes one: standalone, filled from DEFAULT, then attached. */
async function monthPartition(databaseUrl: string, month: string, next: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const table = `events_${month.replace('-', '_')}`;
    const { rowCount } = await client.query('select 1 from pg_class where relname = $1', [table]);
    if (rowCount) return;
    await client.query('begin');
    await client.query(`create table ${table} (like events including defaults including constraints)`);
    await client.query(
      `with moved as (delete from events_default where created_at >= $1 and created_at < $2 returning *) insert into ${table} select * from moved`,
      [month, next],
    );
    await client.query(`alter table events attach partition ${table} for values from ('${month}') to ('${next}')`);
    await client.query('commit');
  } finally {
    await client.end();
  }
}

export function cliRunner(entry: readonly string[], env: Record<string, string>): (args: readonly string[]) => string {
  return (args) => execFileSync(process.execPath, [...entry, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
}
