// The peer comparison (issue 52): wrs against a pinned Directus on the same generated events, on
// SQLite and on PostgreSQL, each query driven by `wrk` beside a bare node:http server. Not part of
// `npm test`. From the repository's root:
//   node --import tsx bench/peers/run.ts                       # 200,000 events, both databases
//   node --import tsx bench/peers/run.ts --db sqlite --events 20000 --seconds 3 --rounds 1
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { baseServiceEnv, createDatabase, dbKindOf, loadThenStop, userToken, type BenchDatabase, type DbKind } from '../lib/bench-service.js';
import { LARGE_COMPANY, companyEvents, companyId, companyRecords, eventsPerCompany, recordsPerCompany, type DataPlan } from '../lib/data.js';
import { freePort, startProcess, type RunningProcess } from '../lib/processes.js';
import { DIRECTUS_TOKEN, DIRECTUS_VERSION, countThroughDirectus, defineCollections, insertItems, installDirectus, startDirectus } from './directus.js';
import { peerQueries, type PeerQuery, type PeerRequest } from './queries.js';
import { runWrk, type WrkResult } from './wrk.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite,postgres' },
    events: { type: 'string', default: '200000' },
    seconds: { type: 'string', default: '6' },
    rounds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    // A folder where Directus is already installed (its node_modules/directus): no install, and it is kept.
    directus: { type: 'string' },
    // Use dist/ as it is instead of running `npm run build` first.
    'no-build': { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});

const number = (name: string, value: string | undefined, min: number, integer = false): number => {
  const parsed = Number(value);
  if (!(Number.isFinite(parsed) && parsed >= min && (!integer || Number.isSafeInteger(parsed)))) {
    throw new Error(`--${name} is a ${integer ? 'whole ' : ''}number of at least ${min}`);
  }
  return parsed;
};
const dbKinds = [...new Set(values.db!.split(',').filter(Boolean).map(dbKindOf))];
if (dbKinds.length === 0) throw new Error('--db names sqlite, postgres or both (sqlite,postgres)');
const COMPANIES = 20;
const events = number('events', values.events, COMPANIES, true);
const seconds = number('seconds', values.seconds, 1, true);
const rounds = number('rounds', values.rounds, 1, true);
const warmupSeconds = number('warmup', values.warmup, 0, true);
const connections = number('connections', values.connections, 1, true);
// The issue's data: 20 companies, one holding 40% of the events (the one every query reads), a record for every ten events.
const plan: DataPlan = { companies: COMPANIES, events, largeCompanyShare: 0.4, records: Math.max(COMPANIES, Math.round(events / 10)) };
const started = Date.now();
const log = (message: string) => console.error(`[peers ${((Date.now() - started) / 1000).toFixed(0)} s] ${message}`);

interface Measured {
  bare: WrkResult;
  service: WrkResult;
  /** The service's rate over the bare server's rate run just before it. */
  normalised: number;
}
interface QueryResult {
  query: PeerQuery;
  rows: number;
  rounds: { wrs: Measured; directus: Measured }[];
}
interface DbResult {
  dbKind: DbKind;
  queries: QueryResult[];
}

/** Stops and removes on the way out, newest first, whatever failed; down to `keep` entries. */
const cleanups: (() => Promise<void> | void)[] = [];
async function cleanUp(keep = 0): Promise<void> {
  while (cleanups.length > keep) {
    try {
      await cleanups.pop()!();
    } catch (error) {
      console.error('clean-up:', error);
    }
  }
}

async function startWrs(databaseUrl: string): Promise<RunningProcess> {
  const port = await freePort();
  return startProcess([join(root, 'dist/cli/main.js'), 'serve'], baseServiceEnv(port, databaseUrl), port);
}

async function getJson(baseUrl: string, request: PeerRequest): Promise<any> {
  const response = await fetch(`${baseUrl}${request.path}`, { headers: request.headers });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${request.path}: ${response.status} ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

/** Both services must answer the same rows in the same order, or the comparison would not be of the same work. */
async function sameRows(query: PeerQuery, wrsUrl: string, directusUrl: string): Promise<number> {
  const wrsRows = query.wrsRows(await getJson(wrsUrl, query.wrs));
  const directusRows = query.directusRows(await getJson(directusUrl, query.directus));
  const unread = [...wrsRows, ...directusRows].find((row) => /\b(undefined|NaN)\b/.test(row));
  if (unread) throw new Error(`${query.name}: a row without the values compared: ${unread}`);
  const differ = wrsRows.findIndex((row, i) => row !== directusRows[i]);
  if (wrsRows.length !== directusRows.length || differ !== -1) {
    throw new Error(
      `${query.name}: wrs answered ${wrsRows.length} rows, Directus ${directusRows.length}; first difference at ${differ}: ${wrsRows[differ]} against ${directusRows[differ]}`,
    );
  }
  return wrsRows.length;
}

/**
 * When wrk stops, the requests it had in flight are still being answered: 50 pages of 10,000
 * rows keep Directus busy for a minute, which would fall on the next run of either service. So
 * after each run, one cheap read at a time until one comes back quickly: it queued behind them.
 */
async function drain(baseUrl: string, probe: PeerRequest): Promise<void> {
  const deadline = Date.now() + 600_000;
  for (;;) {
    const started = performance.now();
    const response = await fetch(`${baseUrl}${probe.path}`, { headers: probe.headers });
    await response.arrayBuffer();
    if (response.ok && performance.now() - started < 250) return;
    if (Date.now() > deadline) throw new Error(`${baseUrl} still busy 10 minutes after a run`);
  }
}

// The bare server's rate settles within a second or two: half as long as the services' runs.
const bareSeconds = Math.max(2, Math.round(seconds / 2));

async function measure(bareUrl: string, baseUrl: string, request: PeerRequest, probe: PeerRequest): Promise<Measured> {
  const bare = await runWrk({ url: bareUrl, headers: {}, connections, seconds: bareSeconds });
  const service = await runWrk({ url: `${baseUrl}${request.path}`, headers: request.headers, connections, seconds });
  await drain(baseUrl, probe);
  return { bare, service, normalised: service.requestsPerSecond / bare.requestsPerSecond };
}

function* allItems(kind: 'events' | 'records'): Generator<{ company: string; item: Record<string, unknown> }> {
  const counts = kind === 'events' ? eventsPerCompany(plan) : recordsPerCompany(plan);
  for (let i = 0; i < plan.companies; i++) {
    const generated = kind === 'events' ? companyEvents(i, counts[i]!) : companyRecords(i, counts[i]!);
    for (const item of generated) yield { company: companyId(i), item };
  }
}

async function compareOn(dbKind: DbKind, installDir: string): Promise<DbResult> {
  const kept = cleanups.length;
  const database = async (suffix: string): Promise<BenchDatabase> => {
    const made = await createDatabase(dbKind, suffix);
    cleanups.push(() => made.drop());
    return made;
  };
  const wrsDatabase = await database('_peer_wrs');
  const directusDatabase = await database('_peer_directus');

  log(`${dbKind}: loading ${plan.events} events and ${plan.records} records into wrs through its operator routes`);
  const loaded = await loadThenStop(await startWrs(wrsDatabase.url), plan);
  // Started afresh on the loaded data, as Directus reads data it did not write.
  const wrs = await startWrs(wrsDatabase.url);
  cleanups.push(() => wrs.stop());

  log(`${dbKind}: bootstrapping Directus ${DIRECTUS_VERSION} and loading the same rows into it`);
  const dataDir = mkdtempSync(join(tmpdir(), 'wrs-peer-directus-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const directus = await startDirectus(installDir, dataDir, dbKind, directusDatabase.url);
  cleanups.push(() => directus.stop());
  const directusUrl = directus.process.baseUrl;
  await defineCollections(directusUrl);
  await insertItems(dbKind, directusDatabase.url, 'events', allItems('events'));
  await insertItems(dbKind, directusDatabase.url, 'records', allItems('records'));
  const seenEvents = await countThroughDirectus(directusUrl, 'events', LARGE_COMPANY);
  const seenRecords = await countThroughDirectus(directusUrl, 'records', LARGE_COMPANY);
  if (seenEvents !== eventsPerCompany(plan)[0] || seenRecords !== recordsPerCompany(plan)[0]) {
    throw new Error(
      `Directus sees ${seenEvents} events and ${seenRecords} records of ${LARGE_COMPANY}, not ${eventsPerCompany(plan)[0]} and ${recordsPerCompany(plan)[0]}`,
    );
  }

  const queries = peerQueries({ company: LARGE_COMPANY, wrsToken: await userToken(LARGE_COMPANY), directusToken: DIRECTUS_TOKEN, loaded });
  const results: QueryResult[] = [];
  for (const query of queries) results.push({ query, rows: await sameRows(query, wrs.baseUrl, directusUrl), rounds: [] });
  log(`${dbKind}: the same rows from both services (${results.map((r) => r.rows).join(', ')})`);

  const barePort = await freePort();
  const bare = await startProcess(['--import', 'tsx', join(root, 'bench/baselines/bare-server.ts')], {}, barePort);
  cleanups.push(() => bare.stop());
  const bareUrl = `${bare.baseUrl}/`;
  const sides = { wrs: wrs.baseUrl, directus: directusUrl };
  const probes = { wrs: queries[0]!.wrs, directus: queries[0]!.directus };

  if (warmupSeconds > 0) {
    // On one connection: enough to compile each service's code paths, and no backlog to drain.
    log(`${dbKind}: warming both services up, ${warmupSeconds} s a query`);
    for (const { query } of results) {
      for (const side of ['wrs', 'directus'] as const) {
        await runWrk({ url: `${sides[side]}${query[side].path}`, headers: query[side].headers, connections: 1, seconds: warmupSeconds });
        await drain(sides[side], probes[side]);
      }
    }
  }
  for (let round = 0; round < rounds; round++) {
    // Which goes first alternates, so that a drift of the machine falls on each in turn.
    const order = round % 2 === 0 ? (['wrs', 'directus'] as const) : (['directus', 'wrs'] as const);
    for (const result of results) {
      log(`${dbKind}: round ${round + 1} of ${rounds}, ${result.query.name}`);
      const measured: Partial<Record<'wrs' | 'directus', Measured>> = {};
      for (const side of order) measured[side] = await measure(bareUrl, sides[side], result.query[side], probes[side]);
      result.rounds.push({ wrs: measured.wrs!, directus: measured.directus! });
    }
  }
  await cleanUp(kept);
  return { dbKind, queries: results };
}

const DB_NAMES: Record<DbKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const times = (value: number) => (!Number.isFinite(value) ? '-' : value >= 10 ? `${Math.round(value)}x` : `${value.toFixed(1)}x`);
const ratioOf = (round: QueryResult['rounds'][number]) => round.wrs.normalised / round.directus.normalised;
function ratioRange(result: QueryResult): string {
  const ratios = result.rounds.map(ratioOf);
  const [low, high] = [times(Math.min(...ratios)), times(Math.max(...ratios))];
  return low === high ? low : `${low.slice(0, -1)}–${high}`;
}
const rate = (result: WrkResult) =>
  `${result.requestsPerSecond < 10 ? result.requestsPerSecond.toFixed(1) : Math.round(result.requestsPerSecond).toLocaleString('en')}${result.errors ? ` (${result.errors} errors)` : ''}`;
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(value < 10 ? 2 : 0) : '-');

function git(...args: string[]): string {
  try {
    return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '?';
  }
}

function report(results: DbResult[], minutes: number): string {
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const lines = [
    `# Peer comparison: wrs against Directus ${DIRECTUS_VERSION}, ${when} UTC`,
    '',
    `- data: ${plan.events.toLocaleString('en')} events and ${plan.records.toLocaleString('en')} records in ${plan.companies} companies (\`bench/lib/data.ts\`), the same rows in both; every query reads \`${LARGE_COMPANY}\` (${eventsPerCompany(plan)[0]!.toLocaleString('en')} events)`,
    `- wrs: ${git('rev-parse', '--abbrev-ref', 'HEAD')} ${git('rev-parse', '--short', 'HEAD')}, \`dist/\`, the bench's settings; pages built afresh (\`Cache-Control: no-cache\`)`,
    `- Directus ${DIRECTUS_VERSION} from npm, its defaults (no cache) but its load shedding and telemetry off, read with the admin's static token; collections made through its API with an index on \`company_id\`, \`created_at\`, \`flow_key\`, \`flow_session\`; each query filtered to the company and sorted \`created_at,id\` (wrs's order)`,
    `- \`wrk -t1 -c${connections}\`, ${seconds} s a run after ${warmupSeconds} s of warm-up a query on one connection, ${rounds} round${rounds > 1 ? 's' : ''} (which service goes first alternates); before each run of a service, a bare \`node:http\` server (\`bench/baselines/bare-server.ts\`) for ${bareSeconds} s; after it, until the service has answered what was still in flight`,
    `- machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}; the whole run took ${minutes.toFixed(1)} min`,
    '',
    "Each figure: wrs's rate over the bare server's run just before it, divided by Directus's rate over the bare server's run just before it; the range over the rounds.",
    '',
    `| query | ${results.map((r) => `${DB_NAMES[r.dbKind]}: wrs / Directus`).join(' | ')} |`,
    `|---|${results.map(() => '---:').join('|')}|`,
  ];
  results[0]!.queries.forEach((_, i) => {
    lines.push(`| ${results[0]!.queries[i]!.query.name} | ${results.map((r) => ratioRange(r.queries[i]!)).join(' | ')} |`);
  });
  for (const result of results) {
    lines.push(
      '',
      `## ${DB_NAMES[result.dbKind]}: each run`,
      '',
      '| query | rows | round | bare req/s | wrs req/s | wrs p50 / p99 ms | bare req/s | Directus req/s | Directus p50 / p99 ms | wrs / Directus |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const query of result.queries) {
      query.rounds.forEach((round, i) => {
        const { wrs, directus } = round;
        lines.push(
          `| ${query.query.name} | ${query.rows} | ${i + 1} | ${rate(wrs.bare)} | ${rate(wrs.service)} | ${ms(wrs.service.p50Ms)} / ${ms(wrs.service.p99Ms)} | ${rate(directus.bare)} | ${rate(directus.service)} | ${ms(directus.service.p50Ms)} / ${ms(directus.service.p99Ms)} | ${times(ratioOf(round))} |`,
        );
      });
    }
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  if (!values['no-build']) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (!existsSync(join(root, 'dist/cli/main.js'))) throw new Error('no dist/cli/main.js: run npm run build');
  // `wrk --version` prints its version and exits 1: only a missing program is an error.
  if (spawnSync(process.env.WRK ?? 'wrk', ['--version']).error) throw new Error('wrk is not installed: apt-get install wrk');
  process.once('SIGINT', () => void cleanUp().finally(() => process.exit(130)));

  let installDir = values.directus === undefined ? undefined : resolve(values.directus);
  if (installDir && !existsSync(join(installDir, 'node_modules/directus/cli.js'))) throw new Error(`${installDir} has no node_modules/directus`);
  if (!installDir) {
    installDir = mkdtempSync(join(tmpdir(), 'wrs-peer-install-'));
    const dir = installDir;
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    log(`installing Directus ${DIRECTUS_VERSION} from npm into ${dir}`);
    installDirectus(dir);
  }
  const results: DbResult[] = [];
  try {
    for (const dbKind of dbKinds) results.push(await compareOn(dbKind, installDir));
  } finally {
    await cleanUp();
  }
  const text = report(results, (Date.now() - started) / 60_000);
  const out = resolve(values.out ?? join(root, 'bench/results', `${new Date().toISOString().slice(0, 10)}-peers.md`));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  console.log(text);
  log(`written to ${out}`);
}

await main();
