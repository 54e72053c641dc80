// The benchmark: `npm run bench` (SQLite) or `npm run bench -- --db postgres`; `--smoke` for the
// tiny, quarter-second-per-scenario run that `npm test` uses so the harness cannot rot; `--webhooks`
// and `--fairness` for those scenarios alone, on a small data set.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ADMIN_TOKEN, baseServiceEnv, createDatabase, dbKindOf, parseServiceEnv, userToken } from './lib/bench-service.js';
import { FULL_PLAN, SMOKE_PLAN, LARGE_COMPANY, companyId, eventsPerCompany, recordId, recordsPerCompany, type DataPlan } from './lib/data.js';
import { fairnessScenarios, fairnessServiceEnv, type FairnessContext } from './lib/fairness.js';
import { freePort, startProcess, type RunningProcess } from './lib/processes.js';
import { loadDataSet, type LoadedData } from './lib/load-data.js';
import { formatReport, type ScenarioRow } from './lib/report.js';
import { runScenarios } from './lib/scenarios.js';
import type { BenchSettings } from './lib/settings.js';
import { formatSoak, soak, type SoakResult } from './lib/soak.js';
import { webhookScenarios } from './lib/webhooks.js';
import { consoleFirstLoad } from './lib/console-size.js';
import { cliRunner, partitionScenarios } from './lib/partition-scenarios.js';
import { currentPhase, enterPhase, phaseSpans } from './lib/phase.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    smoke: { type: 'boolean', default: false },
    duration: { type: 'string' },
    connections: { type: 'string' },
    out: { type: 'string' },
    only: { type: 'string' },
    soak: { type: 'boolean', default: false },
    webhooks: { type: 'boolean', default: false },
    fairness: { type: 'boolean', default: false },
    minutes: { type: 'string' },
    // Another data set size, e.g. 10000000 (the same companies and shares): how costs grow with the data.
    events: { type: 'string' },
    // A folder for the service's CPU profile (--cpu-prof) and the phases' times: bench/profile-phases.ts reads them.
    profile: { type: 'string' },
    // KEY=VALUE for the service process alone (NODE_OPTIONS, MALLOC_* ...), repeatable; named in the results.
    'service-env': { type: 'string', multiple: true },
    // dist/ as it is: a run right after another, or an A/B of settings on one build.
    'no-build': { type: 'boolean', default: false },
  },
});
const dbKind = dbKindOf(values.db);
const smoke = values.smoke ?? false;
// --webhooks: only the webhook scenarios, which need no large data set.
const webhooksOnly = values.webhooks ?? false;
// --fairness: only one company's attacks on another's latency (bench/lib/fairness.ts), on the small data set.
const fairnessOnly = values.fairness ?? false;
if (webhooksOnly && fairnessOnly) throw new Error('--webhooks and --fairness each run alone: give one');
const smallRun = webhooksOnly || fairnessOnly;
const basePlan: DataPlan = smoke || smallRun ? SMOKE_PLAN : FULL_PLAN;
const eventsOption = values.events === undefined ? undefined : Number(values.events);
if (eventsOption !== undefined && !(Number.isSafeInteger(eventsOption) && eventsOption >= basePlan.companies)) {
  throw new Error(`--events is a whole number of events, at least one per company (${basePlan.companies})`);
}
const serviceEnvOption = parseServiceEnv(values['service-env'] ?? []);
const plan: DataPlan = eventsOption === undefined ? basePlan : { ...basePlan, events: eventsOption };
const settings: BenchSettings = {
  durationSeconds: Number(values.duration ?? (smoke ? 0.25 : 10)),
  // 50 at once, as the comparison with other services was run, so that tails show.
  connections: Number(values.connections ?? (smoke ? 2 : 50)),
  warmupSeconds: smoke ? 0 : 2,
  // Best of two on a full run; a smoke run only proves each scenario works, so one is enough.
  runs: smoke ? 1 : 2,
  only: values.only ? values.only.split(',') : undefined,
  streamClients: smoke ? 20 : 1000,
  streamRounds: smoke ? 2 : 5,
  streamSettleMs: smoke ? 100 : 1000,
};

/**
 * The floor under the ingest target: the same events written straight on the driver into a
 * second, empty database of the service's schema (bench/baselines/raw-ingest.ts).
 */
async function rawIngestBaseline(): Promise<ScenarioRow> {
  const target = await createDatabase(dbKind, '_raw_ingest');
  try {
    const output = execFileSync(process.execPath, ['--import', 'tsx', 'bench/baselines/raw-ingest.ts', target.url, String(plan.events)], { encoding: 'utf8' });
    const { events, seconds, eventsPerSecond } = JSON.parse(output.trim().split('\n').at(-1)!) as { events: number; seconds: number; eventsPerSecond: number };
    return {
      name: `baseline: raw driver, the same events into the same schema (${dbKind === 'sqlite' ? 'prepared inserts' : 'COPY'}, every index)`,
      value: eventsPerSecond,
      unit: 'events/s',
      detail: `${events} events in ${seconds.toFixed(1)} s`,
    };
  } finally {
    await target.drop();
  }
}

const profileDir = values.profile === undefined ? undefined : resolve(values.profile);
if (profileDir) mkdirSync(profileDir, { recursive: true });

let built = values['no-build'] ?? false;
function serviceEntry(): string[] {
  const profiling = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  if (smoke) return [...profiling, '--import', 'tsx', 'src/cli/main.ts', 'serve'];
  if (!built) execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
  built = true;
  return [...profiling, 'dist/cli/main.js', 'serve'];
}

function fairnessContext(service: RunningProcess, tokenOf: (company: string) => string, recordTypeId: string): FairnessContext {
  return {
    service,
    adminToken: ADMIN_TOKEN,
    tokenOf,
    attacker: LARGE_COMPANY,
    victim: companyId(1),
    recordTypeId,
    attackerRecordIds: Array.from({ length: 80 }, (_, i) => recordId(0, i)),
    victimRecordId: recordId(1, 0),
    smoke,
  };
}

/**
 * The fairness scenarios of a full run, on a service and small data set of their own: the main
 * service lets the stream-fanout scenario hold 1,000 streams of one company, a cap the stream
 * flood must meet at its default.
 */
async function fairnessOnOwnService(tokenOf: (company: string) => string): Promise<ScenarioRow[]> {
  const database = await createDatabase(dbKind, '_fairness');
  const port = await freePort();
  const service = await startProcess(serviceEntry(), { ...baseServiceEnv(port, database.url), ...fairnessServiceEnv(false), ...serviceEnvOption }, port);
  try {
    enterPhase('loading the fairness data set');
    const loaded = await loadDataSet({
      baseUrl: service.baseUrl,
      adminToken: ADMIN_TOKEN,
      plan: SMOKE_PLAN,
      eventsPerCompany: eventsPerCompany(SMOKE_PLAN),
      recordsPerCompany: recordsPerCompany(SMOKE_PLAN),
    });
    return await fairnessScenarios(fairnessContext(service, tokenOf, loaded.recordTypeId));
  } finally {
    await service.stop();
    await database.drop();
  }
}

async function main(): Promise<void> {
  const database = await createDatabase(dbKind);
  const port = await freePort();
  // A full run adds the fairness scenarios on a service of their own; --fairness runs them alone
  // on this one. A smoke run leaves them out: they take some 15 s even at their smallest.
  const fairnessSelected = !values.soak && !webhooksOnly && !fairnessOnly && !smoke && (!settings.only || settings.only.includes('fairness'));
  const serviceEnv = {
    ...baseServiceEnv(port, database.url),
    ...(fairnessOnly ? fairnessServiceEnv(smoke) : {}),
    // The stream-fanout scenario holds this many streams of one company.
    ...(fairnessOnly ? {} : { WRS_STREAMS_PER_COMPANY: String(settings.streamClients) }),
    ...serviceEnvOption,
  };
  let service: RunningProcess | undefined;
  let peakRss = 0;
  let peakPhase = '';
  let idleRss = 0;
  let sampler: NodeJS.Timeout | undefined;
  const rows: ScenarioRow[] = [];
  const tokens = new Map<string, string>();
  let soakResult: SoakResult | undefined;
  try {
    service = await startProcess(serviceEntry(), serviceEnv, port);
    const running = service;
    // Settled: what the service holds started and waiting, before any data or request (the
    // service gives back what its start grew once it has been quiet a few seconds).
    await new Promise((resolve) => setTimeout(resolve, smoke ? 0 : 20_000));
    idleRss = running.rss();
    sampler = setInterval(() => {
      const rss = running.rss();
      if (rss > peakRss) [peakRss, peakPhase] = [rss, currentPhase()];
    }, 100);
    for (let i = 0; i < plan.companies; i++) tokens.set(companyId(i), await userToken(companyId(i)));

    enterPhase('loading the data set');
    console.error(`loading ${plan.events} events and ${plan.records} records over ${plan.companies} companies`);
    const loaded: LoadedData = await loadDataSet({
      baseUrl: running.baseUrl,
      adminToken: ADMIN_TOKEN,
      plan,
      eventsPerCompany: eventsPerCompany(plan),
      recordsPerCompany: recordsPerCompany(plan),
    });
    const ingestTarget = dbKind === 'sqlite' ? 150_000 : 50_000;
    enterPhase('raw ingest baseline (another process)');
    // The raw driver copies the whole data set again: only where the ingest's rate is what the run is for.
    const rawIngest = smallRun || (settings.only && !settings.only.includes('ingest')) ? undefined : await rawIngestBaseline();
    for (const loadRow of loaded.rows) {
      if (loadRow.unit !== 'events/s') continue;
      loadRow.target = `>= ${ingestTarget.toLocaleString('en')} events/s`;
      loadRow.met = (loadRow.value ?? 0) >= ingestTarget;
      if (rawIngest) loadRow.detail += `; ${((loadRow.value ?? 0) / rawIngest.value!).toFixed(2)}x the raw driver`;
    }
    rows.push(...loaded.rows);
    if (rawIngest) rows.push(rawIngest);

    if (values.soak) {
      const seconds = Math.round(Number(values.minutes ?? (smoke ? 0.05 : 10)) * 60);
      console.error(`soak: mixed load for ${seconds} s`);
      enterPhase('soak');
      soakResult = await soak(running, loaded, tokens.get(LARGE_COMPANY)!, {
        seconds,
        connections: settings.connections,
        sampleEverySeconds: smoke ? 1 : 10,
      });
    } else if (fairnessOnly) {
      rows.push(...(await fairnessScenarios(fairnessContext(running, (company) => tokens.get(company)!, loaded.recordTypeId))));
    } else {
      if (!webhooksOnly) {
        rows.push(
          ...(await runScenarios({
            service: running,
            settings,
            databaseUrl: database.url,
            largeCompany: LARGE_COMPANY,
            token: tokens.get(LARGE_COMPANY)!,
            loaded,
            tokenOf: (company) => tokens.get(company)!,
            adminToken: ADMIN_TOKEN,
            companies: plan.companies,
            dbKind,
          })),
        );
      }
      if (!webhooksOnly && (!settings.only || settings.only.includes('partitions'))) {
        enterPhase('partitions: ingest into the full table, retention of a month');
        rows.push(
          ...(await partitionScenarios({
            baseUrl: running.baseUrl,
            adminToken: ADMIN_TOKEN,
            databaseUrl: database.url,
            dbKind,
            smoke,
            emptyIngest: loaded.rows.find((row) => row.name === 'ingest events (NDJSON stream)'),
            runCli: cliRunner(
              serviceEntry()
                .filter((arg) => !arg.startsWith('--cpu-prof'))
                .slice(0, -1),
              serviceEnv,
            ),
          })),
        );
      }
      enterPhase('console');
      if (!settings.only || settings.only.includes('console')) rows.push(...(await consoleFirstLoad(running.baseUrl)));
      if (!settings.only || settings.only.includes('webhooks')) {
        rows.push(
          ...(await webhookScenarios({
            service: running,
            settings,
            token: tokens.get(LARGE_COMPANY)!,
            recordTypeId: loaded.recordTypeId,
            adminToken: ADMIN_TOKEN,
            company: LARGE_COMPANY,
            smoke,
          })),
        );
      }
    }
  } finally {
    if (sampler) clearInterval(sampler);
    const spans = phaseSpans();
    await service?.stop();
    await database.drop();
    if (profileDir && service) {
      // The service writes its profile as it exits: CPU.<date>.<time>.<pid>.0.<n>.cpuprofile for its main thread.
      writeFileSync(join(profileDir, 'phases.json'), JSON.stringify({ servicePid: service.child.pid, phases: spans }, null, 1));
      console.error(`CPU profile and phases written to ${profileDir} (node --import tsx bench/profile-phases.ts ${profileDir})`);
    }
  }
  if (fairnessSelected) rows.push(...(await fairnessOnOwnService((company) => tokens.get(company)!)));

  const report = formatReport({
    rows,
    dbKind,
    smoke,
    settings,
    plan,
    peakRss,
    peakPhase,
    idleRss,
    serviceEnv: serviceEnvOption,
    machine: `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB`,
  });
  const fullReport = soakResult ? `${report}\n${formatSoak(soakResult)}` : report;
  console.log(fullReport);
  const outDir = values.out ?? 'bench/results';
  mkdirSync(outDir, { recursive: true });
  const file = join(
    outDir,
    `${new Date().toISOString().slice(0, 10)}-${dbKind}${values.soak ? '-soak' : ''}${webhooksOnly ? '-webhooks' : ''}${fairnessOnly ? '-fairness' : ''}${eventsOption === undefined ? '' : `-${eventsOption}-events`}${smoke ? '-smoke' : ''}.md`,
  );
  writeFileSync(file, fullReport);
  console.error(`results written to ${file}`);
}

await main();
