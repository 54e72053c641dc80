// Two builds of the service side by side on one data set, their runs alternated (A B A B ...):
// the same-run A/B issue 48 asks of every speed mechanism. Each checkout needs a built dist/.
//   node --import tsx bench/side-by-side.ts --a /work/main --b ../wt/rm-x --db sqlite --events 100000 \
//     --scenarios record-get,events-exact --rounds 3 --seconds 10
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { baseServiceEnv, type BenchDatabase, copyDatabase, createDatabase, dbKindOf, loadThenStop, parseServiceEnv, userToken } from './lib/bench-service.js';
import { FULL_PLAN, LARGE_COMPANY, SMOKE_PLAN, type DataPlan } from './lib/data.js';
import { runLoad, type LoadResult } from './lib/load.js';
import { freePort, startProcess, withPeakRss, type RunningProcess } from './lib/processes.js';
import { SIDE_BY_SIDE_SCENARIOS, type ScenarioRequest } from './lib/side-by-side-scenarios.js';

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    db: { type: 'string', default: 'sqlite' },
    events: { type: 'string' },
    // The bench's smoke data set (3 companies, 3,000 events): proves the runner works, measures nothing.
    smoke: { type: 'boolean', default: false },
    scenarios: { type: 'string', default: 'record-get,record-get-spread,events-exact,events-repeat,events-contains,events-10000' },
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    // How long both services are left alone before their idle RSS is read (the service gives back
    // what its start grew once it has been quiet a few seconds).
    'quiet-seconds': { type: 'string' },
    'service-env-a': { type: 'string', multiple: true },
    'service-env-b': { type: 'string', multiple: true },
    // B on its own copy of the data A loaded, so that B may migrate it: builds on either side of a migration.
    'own-databases': { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});

const dbKind = dbKindOf(values.db);
const smoke = values.smoke ?? false;
const number = (name: string, value: string | undefined, min: number): number => {
  const parsed = Number(value);
  if (!(Number.isFinite(parsed) && parsed >= min)) throw new Error(`--${name} is a number of at least ${min}`);
  return parsed;
};
const rounds = number('rounds', values.rounds, 1);
const seconds = number('seconds', values.seconds, 0.25);
const warmupSeconds = number('warmup', values.warmup, 0);
const connections = number('connections', values.connections, 1);
const quietSeconds = number('quiet-seconds', values['quiet-seconds'] ?? (smoke ? '0' : '20'), 0);
const basePlan: DataPlan = smoke ? SMOKE_PLAN : FULL_PLAN;
const plan: DataPlan = values.events === undefined ? basePlan : { ...basePlan, events: number('events', values.events, basePlan.companies) };
const scenarioNames = values.scenarios!.split(',').filter(Boolean);
for (const name of scenarioNames) {
  if (!SIDE_BY_SIDE_SCENARIOS[name]) throw new Error(`unknown scenario ${name}; known: ${Object.keys(SIDE_BY_SIDE_SCENARIOS).join(', ')}`);
}

interface Side {
  label: 'A' | 'B';
  dir: string;
  extraEnv: Record<string, string>;
  service?: RunningProcess;
  idleRss: number;
  peakRss: number;
}

function side(label: 'A' | 'B', dir: string | undefined, env: string[] | undefined): Side {
  if (!dir) throw new Error(`--${label.toLowerCase()} names a checkout with a built dist/`);
  const absolute = resolve(dir);
  if (!existsSync(join(absolute, 'dist/cli/main.js'))) throw new Error(`${absolute} has no dist/cli/main.js: run npm run build there`);
  return { label, dir: absolute, extraEnv: parseServiceEnv(env ?? [], `--service-env-${label.toLowerCase()}`), idleRss: 0, peakRss: 0 };
}

const sides = [side('A', values.a, values['service-env-a']), side('B', values.b, values['service-env-b'])] as const;

function describe(s: Side): string {
  const git = (...args: string[]) => {
    try {
      return execFileSync('git', ['-C', s.dir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return '?';
    }
  };
  const env = Object.entries(s.extraEnv).map(([key, value]) => ` ${key}=${value}`);
  return `${s.dir} (${git('rev-parse', '--abbrev-ref', 'HEAD')} ${git('rev-parse', '--short', 'HEAD')})${env.length ? `, with${env.join(',')}` : ''}`;
}

async function start(s: Side, databaseUrl: string): Promise<RunningProcess> {
  const port = await freePort();
  return startProcess([join(s.dir, 'dist/cli/main.js'), 'serve'], { ...baseServiceEnv(port, databaseUrl), ...s.extraEnv }, port);
}

interface Run {
  result: LoadResult;
  peakRss: number;
}

async function loadRun(s: Side, request: ScenarioRequest, durationSeconds: number): Promise<Run> {
  const service = s.service!;
  const load = request.load(service.baseUrl);
  const { result, peakRss } = await withPeakRss(service, () => runLoad({ ...load, connections: request.connections ?? connections, durationSeconds }));
  s.peakRss = Math.max(s.peakRss, peakRss);
  return { result, peakRss };
}

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const median = (list: number[]) => [...list].sort((x, y) => x - y)[Math.floor((list.length - 1) / 2)]!;

function scenarioTable(name: string, request: ScenarioRequest, runs: { a: Run; b: Run }[]): string[] {
  const cell = (run: Run) => {
    const errors = run.result.errors + run.result.non2xx;
    return `${Math.round(run.result.requestsPerSecond).toLocaleString('en')} | ${run.result.p50Ms.toFixed(2)} | ${run.result.p99Ms.toFixed(2)} | ${mb(run.peakRss)}${errors ? ` (${errors} errors)` : ''}`;
  };
  // Adjacent pairs in running order (A1 B1, B1 A2, A2 B2 ...), so a drift of the machine shows as such.
  const ratios: number[] = [];
  const lines = [
    `### ${name}: ${request.describe} (${request.connections ?? connections} connections)`,
    '',
    '| round | A req/s | A p50 ms | A p99 ms | A peak MB | B req/s | B p50 ms | B p99 ms | B peak MB | B/A (A then B) | B/A (B then next A) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  runs.forEach(({ a, b }, i) => {
    const same = b.result.requestsPerSecond / a.result.requestsPerSecond;
    const nextA = runs[i + 1]?.a;
    const next = nextA ? b.result.requestsPerSecond / nextA.result.requestsPerSecond : undefined;
    ratios.push(same, ...(next === undefined ? [] : [next]));
    lines.push(`| ${i + 1} | ${cell(a)} | ${cell(b)} | ${same.toFixed(2)} | ${next === undefined ? '' : next.toFixed(2)} |`);
  });
  lines.push(
    '',
    `B/A over the ${ratios.length} adjacent pairs: median ${median(ratios).toFixed(2)}, ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}.`,
    '',
  );
  return lines;
}

async function main(): Promise<void> {
  const database = await createDatabase(dbKind, '_ab');
  let copyForB: BenchDatabase | undefined;
  const stopAll = async () => {
    await Promise.all(sides.map((s) => s.service?.stop()));
  };
  process.once('SIGINT', () => void stopAll().finally(() => database.drop().finally(() => process.exit(130))));
  const report: string[] = [];
  try {
    // Loaded once, by a service of A's build that then stops: both services start on the same data, neither warmed by the load.
    console.error(`loading ${plan.events} events and ${plan.records} records over ${plan.companies} companies`);
    const loaded = await loadThenStop(await start(sides[0], database.url), plan);
    const token = await userToken(LARGE_COMPANY);
    if (values['own-databases']) copyForB = await copyDatabase(dbKind, database, '_ab_b');
    for (const s of sides) s.service = await start(s, s.label === 'B' && copyForB ? copyForB.url : database.url);
    await new Promise((done) => setTimeout(done, quietSeconds * 1000));
    for (const s of sides) s.idleRss = s.service!.rss();

    const sections: string[] = [];
    for (const name of scenarioNames) {
      const request = SIDE_BY_SIDE_SCENARIOS[name]!({ token, loaded });
      console.error(`${name}: warm-up, then ${rounds} rounds of A B`);
      for (const s of sides) if (warmupSeconds > 0) await loadRun(s, request, warmupSeconds);
      const runs: { a: Run; b: Run }[] = [];
      for (let round = 0; round < rounds; round++) {
        const a = await loadRun(sides[0], request, seconds);
        const b = await loadRun(sides[1], request, seconds);
        runs.push({ a, b });
      }
      sections.push(...scenarioTable(name, request, runs));
    }

    report.push(
      `## Side by side, ${dbKind}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      '',
      `- A: ${describe(sides[0])}`,
      `- B: ${describe(sides[1])}`,
      `- data: ${plan.events.toLocaleString('en')} events, ${plan.records.toLocaleString('en')} records over ${plan.companies} companies (loaded once by A, ${copyForB ? 'B on a copy of it' : 'both services on it'})`,
      `- ${rounds} rounds of A then B, ${seconds} s a run after ${warmupSeconds} s of warm-up each; machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB`,
      `- RSS: A idle ${mb(sides[0].idleRss)} MB, peak ${mb(sides[0].peakRss)} MB; B idle ${mb(sides[1].idleRss)} MB, peak ${mb(sides[1].peakRss)} MB (idle after ${quietSeconds} s quiet; peak during its own runs)`,
      '',
      ...sections,
    );
  } finally {
    await stopAll();
    await database.drop();
    await copyForB?.drop();
  }
  const text = report.join('\n');
  console.log(text);
  if (values.out) writeFileSync(values.out, `${text}\n`);
}

await main();
