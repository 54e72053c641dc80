import { spawn, type ChildProcess } from 'node:child_process';
import { getPriority, setPriority } from 'node:os';
import { Agent, request, type ClientRequest } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { jsonRequest, jsonRequestOn } from './http-client.js';
import { benchTemplate } from './load-data.js';
import { enterPhase } from './phase.js';
import type { RunningProcess } from './processes.js';
import type { ScenarioRow } from './report.js';
import { percentile, startReceiver, waitForArrivals } from './webhooks.js';
import type { Samples, VictimJob } from './victim-client.js';

const VICTIM_CLIENT = fileURLToPath(new URL('./victim-client.ts', import.meta.url));

/**
 * One company (the attacker) runs an attack while another (the victim) reads; each of the
 * victim's figures is reported as a ratio to the same figure measured just before, alone.
 * Issue 47's target: at most 2x.
 */
export interface FairnessContext {
  service: RunningProcess;
  adminToken: string;
  tokenOf(company: string): string;
  attacker: string;
  victim: string;
  /** A record type both companies define, and records of each (ids from the data set). */
  recordTypeId: string;
  attackerRecordIds: string[];
  victimRecordId: string;
  smoke: boolean;
}

/**
 * An attempt that hangs holds its delivery slot for this long: long enough to cover a whole
 * phase of the hanging-webhooks attack, short enough to keep the run short.
 */
export const FAIRNESS_WEBHOOK_TIMEOUT_MS = 5000;
const SMOKE_WEBHOOK_TIMEOUT_MS = 2000;

/** What the service runs with for these scenarios (beside the bench's own settings). */
export function fairnessServiceEnv(smoke: boolean): Record<string, string> {
  return {
    WRS_WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WRS_WEBHOOK_TIMEOUT_MS: String(smoke ? SMOKE_WEBHOOK_TIMEOUT_MS : FAIRNESS_WEBHOOK_TIMEOUT_MS),
    // Every attacking connection comes from this one address, as many clients do behind a
    // trusted proxy: the per-company bounds are what is measured, not the per-address cap.
    WRS_MAX_CONNECTIONS_PER_ADDRESS: '0',
  };
}

const RATIO_TARGET = 2;

/**
 * The victim's client and the attacker's load generators stand for other machines, yet share
 * this one's cores with the service: the victim's client runs above the service's priority and
 * the attacker's generators below it, so that neither client's own wait for a core is counted as
 * the service's. Raising a priority needs root (or CAP_SYS_NICE); without it the figures are
 * taken at the default priority and the report says so.
 */
const VICTIM_NICE = -10;
const LOAD_GENERATOR_NICE = 10;
const CAN_RAISE_PRIORITY = process.getuid?.() === 0;
const PRIORITIES = CAN_RAISE_PRIORITY
  ? `clients: the victim's at nice ${VICTIM_NICE}, the attacker's at nice ${LOAD_GENERATOR_NICE}`
  : 'clients at the default priority (not root)';

function raisePriority(pid: number): void {
  if (CAN_RAISE_PRIORITY) setPriority(pid, VICTIM_NICE);
}

function lowerPriority(pid: number): void {
  if (CAN_RAISE_PRIORITY) setPriority(pid, LOAD_GENERATOR_NICE);
}

/** Runs `work` with this process (the attacker's loops) at the load generators' priority. */
async function asLoadGenerator<T>(work: () => Promise<T>): Promise<T> {
  if (!CAN_RAISE_PRIORITY) return work();
  const before = getPriority();
  setPriority(LOAD_GENERATOR_NICE);
  try {
    return await work();
  } finally {
    setPriority(before);
  }
}
const REFUSED_RENDER_PAUSE_MS = 250;
/**
 * A render during another company's flood waits at most for the first render running to end
 * (R x T) and then runs within R x its own time (docs/reliability.md): with T its own time, at
 * most 2R x alone. R is WRS_PDF_RENDERS_PER_THREAD, left at its default here.
 */
const RENDERS_PER_THREAD = 4;
const RENDER_BOUND_RATIO = 2 * RENDERS_PER_THREAD;
const LAG_TARGET_MS = 2000;

interface Size {
  /** Seconds of victim reads alone, and again during the attack. */
  phaseSeconds: number;
  /** The attack's head start before the victim's reads are sampled. */
  rampMs: number;
  attackerWebhooks: number;
  /** The endless-body attacker makes a record change this often. */
  changeEveryMs: number;
  /** Record changes the hanging-webhooks attacker makes up front (each one delivery per webhook). */
  hangingChanges: number;
  lagSamples: number;
  streams: number;
  renders: number;
  /** The victim renders at least this many PDFs in each phase. */
  victimRenders: number;
  /** A pause after each attack, for what it left running to end. */
  settleMs: number;
  warmupSeconds: number;
}

const FULL_SIZE: Size = {
  phaseSeconds: 3,
  rampMs: 1000,
  attackerWebhooks: 4,
  changeEveryMs: 100,
  hangingChanges: 20,
  lagSamples: 5,
  streams: 300,
  renders: 80,
  victimRenders: 3,
  settleMs: 1000,
  warmupSeconds: 2,
};
const SMOKE_SIZE: Size = {
  phaseSeconds: 0.5,
  rampMs: 100,
  attackerWebhooks: 2,
  changeEveryMs: 200,
  hangingChanges: 2,
  lagSamples: 1,
  streams: 30,
  renders: 2,
  victimRenders: 1,
  settleMs: 100,
  warmupSeconds: 0.2,
};

const RECORD_BODY = { f_title: 'Fairness item', f_amount: 1, f_urgent: false, f_due: '2026-12-01' };
/** Stored for both companies, so that each renders its own. */
const TEMPLATE = 'fairness-template';

export function fairnessScenarios(ctx: FairnessContext): Promise<ScenarioRow[]> {
  return asLoadGenerator(() => allAttacks(ctx));
}

async function allAttacks(ctx: FairnessContext): Promise<ScenarioRow[]> {
  const size = ctx.smoke ? SMOKE_SIZE : FULL_SIZE;
  const started = performance.now();
  for (const company of [ctx.attacker, ctx.victim]) {
    const stored = await jsonRequest('PUT', `${ctx.service.baseUrl}/admin/v1/companies/${company}/templates/${TEMPLATE}`, ctx.adminToken, benchTemplate());
    if (stored.status !== 200 && stored.status !== 201) throw new Error(`template not stored: ${stored.status} ${JSON.stringify(stored.json)}`);
  }
  const receivers = await startAttackReceivers();
  // The victim's routes compiled and warm before the first figure alone.
  await victimReads(ctx, size.warmupSeconds);
  const rows: ScenarioRow[] = [];
  try {
    rows.push(...(await endlessBody(ctx, size, receivers)));
    rows.push(...(await hangingWebhooks(ctx, size, receivers)));
  } finally {
    await receivers.stop();
  }
  try {
    rows.push(...(await streamFlood(ctx, size)), ...(await renderFlood(ctx, size)), ...(await requestFloor(ctx, size)));
  } finally {
    attackerAgent.destroy();
  }
  console.error(`fairness scenarios: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return rows;
}

// --- the victim's side ---------------------------------------------------------------------

const VICTIM_READS = [
  { label: 'GET /v1/record-types', path: '/v1/record-types' },
  { label: 'GET /v1/events?limit=100', path: '/v1/events?limit=100' },
] as const;

/** Runs one victim job in its own process (see victim-client.ts) and answers its samples. */
async function inVictimProcess(job: VictimJob): Promise<Samples[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', VICTIM_CLIENT, JSON.stringify(job)], { stdio: ['ignore', 'pipe', 'inherit'] });
  raisePriority(child.pid!);
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the victim's client exited with ${code}`);
  return JSON.parse(output) as Samples[];
}

/** The victim's reads, each one request at a time on its own kept-alive connection, for `seconds`. */
function victimReads(ctx: FairnessContext, seconds: number): Promise<Samples[]> {
  return inVictimProcess({
    kind: 'reads',
    baseUrl: ctx.service.baseUrl,
    token: ctx.tokenOf(ctx.victim),
    seconds,
    paths: VICTIM_READS.map((read) => read.path),
  });
}

interface Comparison {
  p50Ms: number;
  p99Ms: number;
  p50Ratio: number;
  p99Ratio: number;
  alone: { p50Ms: number; p99Ms: number };
}

function compare(alone: number[], during: number[]): Comparison {
  const [a, d] = [[...alone].sort((x, y) => x - y), [...during].sort((x, y) => x - y)];
  const aloneP50 = percentile(a, 50);
  const aloneP99 = percentile(a, 99);
  const p50Ms = percentile(d, 50);
  const p99Ms = percentile(d, 99);
  return { p50Ms, p99Ms, p50Ratio: p50Ms / aloneP50, p99Ratio: p99Ms / aloneP99, alone: { p50Ms: aloneP50, p99Ms: aloneP99 } };
}

function ratioRow(name: string, alone: Samples, during: Samples, detail: string, target = RATIO_TARGET, targetReason = ''): ScenarioRow {
  const c = compare(alone.latenciesMs, during.latenciesMs);
  const errors = alone.errors + during.errors;
  return {
    name,
    p50Ms: c.p50Ms,
    p99Ms: c.p99Ms,
    ratio: c.p50Ratio,
    baseline: `p50, ${c.p99Ratio.toFixed(2)}x p99 (alone: p50 ${c.alone.p50Ms.toFixed(2)} ms, p99 ${c.alone.p99Ms.toFixed(2)} ms, ${alone.latenciesMs.length} reads; during: ${during.latenciesMs.length})`,
    errors,
    detail: `${detail}; ${PRIORITIES}`,
    target: `<= ${target}x alone (p50 and p99)${targetReason}`,
    met: c.p50Ratio <= target && c.p99Ratio <= target && errors === 0,
  };
}

function readRows(attack: string, alone: Samples[], during: Samples[], detail: string): ScenarioRow[] {
  return VICTIM_READS.map((read, i) => ratioRow(`fairness-${attack}: another company's ${read.label}, during / alone`, alone[i]!, during[i]!, detail));
}

// --- the attacker's tools --------------------------------------------------------------------

interface AttackReceivers {
  url(kind: 'endless' | 'hanging'): string;
  stats(): Promise<{ deliveries: number; bytesSent: number }>;
  /** Closes what the last attack holds open, so that it cannot weigh on the next. */
  cut(): Promise<void>;
  stop(): Promise<void>;
}

async function startAttackReceivers(): Promise<AttackReceivers> {
  const script = fileURLToPath(new URL('./attack-receiver.ts', import.meta.url));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  lowerPriority(child.pid!);
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the attack receivers exited (${code})`)));
  });
  const base = `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`;
  return {
    url: (kind) => `${base}/${kind}`,
    stats: async () => (await (await fetch(`${base}/stats`)).json()) as { deliveries: number; bytesSent: number },
    cut: async () => {
      await (await fetch(`${base}/cut`, { method: 'POST' })).arrayBuffer();
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

async function subscribe(ctx: FairnessContext, company: string, url: string): Promise<string> {
  const created = await jsonRequest('POST', `${ctx.service.baseUrl}/v1/webhooks`, ctx.tokenOf(company), { url, events: ['record.created'] });
  if (created.status !== 201) throw new Error(`webhook not created: ${created.status} ${JSON.stringify(created.json)}`);
  return created.json.id as string;
}

async function unsubscribe(ctx: FairnessContext, company: string, ids: string[]): Promise<void> {
  for (const id of ids) await jsonRequest('DELETE', `${ctx.service.baseUrl}/v1/webhooks/${id}`, ctx.tokenOf(company));
}

async function createRecord(ctx: FairnessContext, company: string): Promise<boolean> {
  const created = await jsonRequest('POST', `${ctx.service.baseUrl}/v1/records/${ctx.recordTypeId}`, ctx.tokenOf(company), RECORD_BODY);
  return created.status === 201;
}

/** The attacker's record changes, one every `everyMs`, until stopped; resolves to how many were made. */
function keepChanging(ctx: FairnessContext, everyMs: number): { stop(): Promise<number> } {
  let running = true;
  let made = 0;
  const loop = (async () => {
    while (running) {
      if (await createRecord(ctx, ctx.attacker)) made++;
      await sleep(everyMs);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return made;
    },
  };
}

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

// --- the attacks -----------------------------------------------------------------------------

/** (1) The attacker's webhooks answer 200, then stream their body for ever; it keeps making record changes. */
async function endlessBody(ctx: FairnessContext, size: Size, receivers: AttackReceivers): Promise<ScenarioRow[]> {
  enterPhase('fairness-endless-body');
  const alone = await victimReads(ctx, size.phaseSeconds);
  const hooks: string[] = [];
  try {
    for (let i = 0; i < size.attackerWebhooks; i++) hooks.push(await subscribe(ctx, ctx.attacker, receivers.url('endless')));
    const changes = keepChanging(ctx, size.changeEveryMs);
    await sleep(size.rampMs);
    const during = await victimReads(ctx, size.phaseSeconds);
    const made = await changes.stop();
    const stats = await receivers.stats();
    return readRows(
      'endless-body',
      alone,
      during,
      `attacker: ${size.attackerWebhooks} webhooks to a receiver that answers 200 then streams for ever, ${made} record changes; ${stats.deliveries} deliveries answered, ${mb(stats.bytesSent)} MB streamed into the service`,
    );
  } finally {
    // Cut first: while the bodies stream, the service answers the deletes slowly.
    await receivers.cut();
    await unsubscribe(ctx, ctx.attacker, hooks);
    await receivers.cut();
    await sleep(size.settleMs);
  }
}

/**
 * (2) Four attacker webhooks to a receiver that never answers, with deliveries queued beyond the
 * slots; besides the reads, the victim's own delivery lag (its record change's commit to its
 * receiver's arrival).
 */
async function hangingWebhooks(ctx: FairnessContext, size: Size, receivers: AttackReceivers): Promise<ScenarioRow[]> {
  enterPhase('fairness-hanging-webhooks');
  const victimReceiver = await startReceiver();
  const victimHook = await subscribe(ctx, ctx.victim, victimReceiver.url);
  const hooks: string[] = [];
  // Changes spread over the phase; what has not arrived by the wait's end counts at the wait.
  const lags = async (): Promise<{ lagsMs: number[]; late: number }> => {
    victimReceiver.reset();
    const started = performance.now();
    let made = 0;
    for (let i = 0; i < size.lagSamples; i++) {
      if (await createRecord(ctx, ctx.victim)) made++;
      await sleep((size.phaseSeconds * 1000) / size.lagSamples);
    }
    const waitMs = 3 * (ctx.smoke ? SMOKE_WEBHOOK_TIMEOUT_MS : FAIRNESS_WEBHOOK_TIMEOUT_MS) + 5000;
    await waitForArrivals(victimReceiver, made, waitMs);
    const lagsMs = victimReceiver.latencies();
    const late = made - lagsMs.length;
    const waitedMs = performance.now() - started;
    return { lagsMs: [...lagsMs, ...Array<number>(Math.max(0, late)).fill(waitedMs)], late };
  };
  try {
    const aloneLags = await lags();
    const alone = await victimReads(ctx, size.phaseSeconds);
    for (let i = 0; i < size.attackerWebhooks; i++) hooks.push(await subscribe(ctx, ctx.attacker, receivers.url('hanging')));
    let queued = 0;
    for (let i = 0; i < size.hangingChanges; i++) if (await createRecord(ctx, ctx.attacker)) queued += hooks.length;
    await sleep(size.rampMs);
    const [during, duringLags] = await Promise.all([victimReads(ctx, size.phaseSeconds), lags()]);
    const stats = await receivers.stats();
    const detail = `attacker: ${hooks.length} webhooks to a receiver that never answers, ${queued} deliveries queued; ${stats.deliveries} attempts reached it (webhook timeout ${ctx.smoke ? SMOKE_WEBHOOK_TIMEOUT_MS : FAIRNESS_WEBHOOK_TIMEOUT_MS} ms)`;
    const lagAlone: Samples = { latenciesMs: aloneLags.lagsMs, errors: 0 };
    const lagDuring: Samples = { latenciesMs: duringLags.lagsMs, errors: 0 };
    const lagRow = ratioRow(
      "fairness-hanging-webhooks: another company's webhook delivery lag (commit → arrival), during / alone",
      lagAlone,
      lagDuring,
      detail,
    );
    const p99 = lagRow.p99Ms ?? 0;
    lagRow.detail = `${detail}; ${duringLags.late} of the victim's deliveries had not arrived after the wait (counted at the wait)`;
    lagRow.target = `p99 < ${LAG_TARGET_MS} ms (issue 47)`;
    lagRow.met = p99 < LAG_TARGET_MS && aloneLags.late === 0 && duringLags.late === 0;
    return [...readRows('hanging-webhooks', alone, during, detail), lagRow];
  } finally {
    await unsubscribe(ctx, ctx.attacker, hooks);
    await unsubscribe(ctx, ctx.victim, [victimHook]);
    await receivers.cut();
    await victimReceiver.close();
    await sleep(size.settleMs);
  }
}

/**
 * (3) The attacker holds open as many event streams as it can (up to `size.streams`; past a cap
 * the service may answer 429, counted) while its events keep coming, each sent to every stream.
 */
async function streamFlood(ctx: FairnessContext, size: Size): Promise<ScenarioRow[]> {
  enterPhase('fairness-stream-flood');
  const alone = await victimReads(ctx, size.phaseSeconds);
  const requests: ClientRequest[] = [];
  const statuses = new Map<string, number>();
  const count = (status: string) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const token = ctx.tokenOf(ctx.attacker);
  const opened = Array.from(
    { length: size.streams },
    () =>
      new Promise<void>((resolve) => {
        const req = request(`${ctx.service.baseUrl}/v1/events/stream`, { headers: { authorization: `Bearer ${token}` } }, (response) => {
          count(String(response.statusCode));
          response.resume();
          response.on('error', () => {});
          resolve();
        });
        req.on('error', (error: NodeJS.ErrnoException) => {
          count(error.code ?? 'error');
          resolve();
        });
        req.end();
        requests.push(req);
      }),
  );
  let ingesting = true;
  let sequence = 0;
  const ingest = (async () => {
    while (ingesting) {
      const lines = Array.from({ length: 20 }, () => {
        sequence++;
        return JSON.stringify({
          id: `fairness-${process.pid}-${Date.now()}-${sequence}`,
          type: 'step_completed',
          flow_key: 'fairness-flow',
          step_key: `step-${sequence % 10}`,
          user_id: 'fairness-user',
        });
      });
      const response = await fetch(`${ctx.service.baseUrl}/admin/v1/companies/${ctx.attacker}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ctx.adminToken}`, 'content-type': 'application/x-ndjson' },
        body: lines.join('\n'),
      });
      await response.arrayBuffer();
      await sleep(200);
    }
  })();
  try {
    await Promise.race([Promise.all(opened), sleep(10_000)]);
    await sleep(size.rampMs);
    const during = await victimReads(ctx, size.phaseSeconds);
    const held = statuses.get('200') ?? 0;
    const refused = statuses.get('429') ?? 0;
    const other = [...statuses].filter(([status]) => status !== '200' && status !== '429').map(([status, n]) => `${n} ${status}`);
    const unanswered = size.streams - [...statuses.values()].reduce((sum, n) => sum + n, 0);
    return readRows(
      'stream-flood',
      alone,
      during,
      `attacker: ${size.streams} GET /v1/events/stream asked, ${held} held open, ${refused} refused with 429${other.length ? `, ${other.join(', ')}` : ''}${unanswered ? `, ${unanswered} unanswered` : ''}; its events ingested 20 every 200 ms (${sequence} sent)`,
    );
  } finally {
    ingesting = false;
    await ingest;
    for (const req of requests) req.destroy();
    await sleep(size.settleMs);
  }
}

/** The attacker's steps: kept-alive connections, so that its client costs the shared cores little. */
const attackerAgent = new Agent({ keepAlive: true });

/** One pdf_create step (`inputs` as given, else a render of the shared template): its status and time. */
async function render(ctx: FairnessContext, company: string, recordId: string, inputs?: Record<string, unknown>): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const answered = await jsonRequestOn(attackerAgent, 'PUT', `${ctx.service.baseUrl}/v1/records/${recordId}/steps`, ctx.tokenOf(company), {
    type: 'pdf_create',
    inputs: inputs ?? { pdf_filename: 'fairness.pdf', template_id: TEMPLATE },
  });
  return { status: answered.status, ms: performance.now() - started };
}

/** The victim's renders one after another, for at least `seconds` and at least `size.victimRenders`. */
async function victimRenders(ctx: FairnessContext, size: Size, seconds: number): Promise<Samples> {
  const [samples] = await inVictimProcess({
    kind: 'renders',
    baseUrl: ctx.service.baseUrl,
    token: ctx.tokenOf(ctx.victim),
    seconds,
    atLeast: size.victimRenders,
    recordId: ctx.victimRecordId,
    templateId: TEMPLATE,
  });
  return samples!;
}

/**
 * The attacker keeps `size.renders` pdf_create steps in flight until stopped; a step answered
 * other than 200 is asked again after a pause: the attack is renders kept waiting, not a flood
 * of requests (the rate limits' concern).
 */
function keepStepsInFlight(ctx: FairnessContext, size: Size, inputs?: Record<string, unknown>) {
  let flooding = true;
  const statuses = new Map<number, number>();
  const loops = Array.from({ length: size.renders }, async (_, i) => {
    const recordId = ctx.attackerRecordIds[i % ctx.attackerRecordIds.length]!;
    while (flooding) {
      const { status } = await render(ctx, ctx.attacker, recordId, inputs);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status !== 200) await sleep(REFUSED_RENDER_PAUSE_MS);
    }
  });
  return {
    async stop(): Promise<string> {
      flooding = false;
      await Promise.all(loops);
      return [...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${n} ${status}`)
        .join(', ');
    },
  };
}

/** (4) The attacker keeps `size.renders` pdf_create steps in flight while the victim renders one PDF at a time. */
async function renderFlood(ctx: FairnessContext, size: Size): Promise<ScenarioRow[]> {
  enterPhase('fairness-render-flood');
  // The first render starts a render thread: not a figure of either phase.
  await render(ctx, ctx.victim, ctx.victimRecordId);
  const alone = await victimReads(ctx, size.phaseSeconds);
  const aloneRenders = await victimRenders(ctx, size, size.phaseSeconds);
  const flood = keepStepsInFlight(ctx, size);
  try {
    await sleep(size.rampMs);
    const during = await victimReads(ctx, size.phaseSeconds);
    const duringRenders = await victimRenders(ctx, size, size.phaseSeconds);
    const answers = await flood.stop();
    const detail = `attacker: ${size.renders} pdf_create steps kept in flight (one refused is asked again after ${REFUSED_RENDER_PAUSE_MS} ms); answers: ${answers}`;
    return [
      ...readRows('render-flood', alone, during, detail),
      ratioRow(
        "fairness-render-flood: another company's pdf_create step, one at a time, during / alone",
        aloneRenders,
        duringRenders,
        detail,
        RENDER_BOUND_RATIO,
        `: the bound docs/reliability.md states, R = ${RENDERS_PER_THREAD} renders sharing a thread`,
      ),
    ];
  } finally {
    await flood.stop();
  }
}

/**
 * (5) A control for the render flood, not an attack with a target: the same loops of steps, each
 * refused with 400 before anything is read or rendered (no template named), asked again after the
 * same pause. What the attacker's requests cost the victim on this machine (its own client, the
 * HTTP parsing, the shared cores) without any render, so the render flood's ratio can be read
 * against it.
 */
async function requestFloor(ctx: FairnessContext, size: Size): Promise<ScenarioRow[]> {
  enterPhase('fairness-request-floor');
  const alone = await victimReads(ctx, size.phaseSeconds);
  const flood = keepStepsInFlight(ctx, size, { pdf_filename: 'fairness.pdf' });
  try {
    await sleep(size.rampMs);
    const during = await victimReads(ctx, size.phaseSeconds);
    const answers = await flood.stop();
    const detail = `control: the render flood's ${size.renders} loops of pdf_create steps, each refused 400 at once (no template) and asked again after ${REFUSED_RENDER_PAUSE_MS} ms; answers: ${answers}`;
    return readRows('request-floor', alone, during, detail).map((row) => ({ ...row, target: 'control (no target)', met: undefined }));
  } finally {
    await flood.stop();
  }
}
