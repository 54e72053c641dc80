import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { jsonRequest } from './http-client.js';
import { runLoad } from './load.js';
import type { RunningProcess } from './processes.js';
import type { ScenarioRow } from './report.js';
import { enterPhase } from './phase.js';
import type { BenchSettings } from './settings.js';

export interface WebhookBenchContext {
  service: RunningProcess;
  settings: BenchSettings;
  token: string;
  recordTypeId: string;
  /** The operator token and the company the ingest scenario writes events into. */
  adminToken: string;
  company: string;
  /** Fewer idle samples and shorter pauses (the smoke run). */
  smoke: boolean;
}

const RECORD_BODY = JSON.stringify({ f_title: 'Benchmark item', f_amount: 12.5, f_urgent: false, f_due: '2026-12-01' });

/** A local receiver that answers 204 at once and notes, per delivery, when it arrived and when its event was stored. */
export async function startReceiver() {
  let arrivals = 0;
  let first = 0;
  let last = 0;
  const latencies: number[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const now = Date.now();
      arrivals++;
      first ||= now;
      last = now;
      // The body's timestamp is taken inside the change's transaction, just before it commits.
      const stored = Date.parse((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string }).timestamp);
      latencies.push(now - stored);
      response.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    get arrivals() {
      return arrivals;
    },
    reset() {
      arrivals = 0;
      first = 0;
      last = 0;
      latencies.length = 0;
    },
    span: () => (last - first) / 1000,
    latencies: () => [...latencies].sort((a, b) => a - b),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Waits until no delivery has arrived for `ms`: what is left of a phase must not count in the next. */
async function quiet(receiver: { arrivals: number }, ms: number): Promise<void> {
  let seen = -1;
  while (seen !== receiver.arrivals) {
    seen = receiver.arrivals;
    await sleep(ms);
  }
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

export async function waitForArrivals(receiver: { arrivals: number }, count: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (receiver.arrivals < count) {
    if (Date.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

/**
 * Webhook delivery to a local receiver: record creates with and without a subscription (the
 * cost of the outbox in the write), commit→arrival on an idle service, and deliveries/s while
 * creates keep coming with eight webhooks subscribed.
 */
export async function webhookScenarios(ctx: WebhookBenchContext): Promise<ScenarioRow[]> {
  const { service, settings, token } = ctx;
  const base = service.baseUrl;
  const rows: ScenarioRow[] = [];
  const receiver = await startReceiver();
  const createUrl = `${base}/v1/records/${ctx.recordTypeId}`;
  const createLoad = () =>
    runLoad({
      url: createUrl,
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: RECORD_BODY,
      connections: settings.connections,
      durationSeconds: settings.durationSeconds,
    });
  const subscribe = async (events: string[]) => {
    const created = await jsonRequest('POST', `${base}/v1/webhooks`, token, { url: receiver.url, events });
    if (created.status !== 201) throw new Error(`webhook not created: ${created.status} ${JSON.stringify(created.json)}`);
    return created.json.id as string;
  };
  try {
    enterPhase('webhook-write-cost');
    // Alternating runs, so that drift of the shared machine hits both sides alike.
    const without: number[] = [];
    const withHook: number[] = [];
    let errors = 0;
    const hooks: string[] = [];
    for (let run = 0; run < settings.runs; run++) {
      for (const id of hooks.splice(0)) await jsonRequest('DELETE', `${base}/v1/webhooks/${id}`, token);
      const plain = await createLoad();
      without.push(plain.requestsPerSecond);
      hooks.push(await subscribe(['record.created']));
      receiver.reset();
      const hooked = await createLoad();
      withHook.push(hooked.requestsPerSecond);
      errors += plain.errors + plain.non2xx + hooked.errors + hooked.non2xx;
      await waitForArrivals(receiver, hooked.requests, 60_000);
      await quiet(receiver, ctx.smoke ? 100 : 500);
    }
    const bestWithout = Math.max(...without);
    const bestWith = Math.max(...withHook);
    const ratio = bestWith / bestWithout;
    rows.push({
      name: 'webhook-write-cost: POST /v1/records with a record.created webhook',
      requestsPerSecond: bestWith,
      ratio,
      baseline: `the same without a webhook (${bestWithout.toFixed(0)} req/s)`,
      errors,
      target: '>= 0.90x',
      met: ratio >= 0.9,
    });

    enterPhase('webhook-latency');
    // Idle: one change at a time, each delivered before the next.
    receiver.reset();
    const samples = ctx.smoke ? 20 : 300;
    let lost = 0;
    for (let i = 0; i < samples; i++) {
      const created = await jsonRequest('POST', createUrl, token, JSON.parse(RECORD_BODY));
      if (created.status !== 201 || !(await waitForArrivals(receiver, i + 1 - lost, 5000))) lost++;
      await sleep(5);
    }
    const latencies = receiver.latencies();
    const p99 = percentile(latencies, 99);
    rows.push({
      name: 'webhook-latency: commit → arrival, idle service, one change at a time',
      p50Ms: percentile(latencies, 50),
      p99Ms: p99,
      detail: `${latencies.length} deliveries, max ${latencies.at(-1) ?? 0} ms`,
      errors: lost,
      target: 'p99 < 500 ms',
      met: p99 < 500 && lost === 0,
    });

    enterPhase('webhook-throughput');
    // Sustained: eight webhooks, creates under load; deliveries counted until the backlog is gone.
    for (let i = hooks.length; i < 8; i++) hooks.push(await subscribe(['*']));
    receiver.reset();
    const load = await createLoad();
    const expected = load.requests * hooks.length;
    const drained = await waitForArrivals(receiver, expected, 120_000);
    const perSecond = receiver.arrivals / receiver.span();
    rows.push({
      name: 'webhook-throughput: 8 webhooks, POST /v1/records under load, until every delivery arrived',
      requestsPerSecond: load.requestsPerSecond,
      value: perSecond,
      unit: 'deliveries/s',
      detail: `${receiver.arrivals} of ${expected} delivered in ${receiver.span().toFixed(1)} s`,
      errors: load.errors + load.non2xx + (drained ? 0 : expected - receiver.arrivals),
      target: '>= 1,000 deliveries/s',
      met: perSecond >= 1000 && drained,
    });
    for (const id of hooks.splice(0)) await jsonRequest('DELETE', `${base}/v1/webhooks/${id}`, token);

    enterPhase('webhook-ingest-cost');
    rows.push(
      await ingestCost(
        ctx,
        () => subscribe(['events.ingested']),
        (id) => jsonRequest('DELETE', `${base}/v1/webhooks/${id}`, token),
      ),
    );
  } finally {
    await receiver.close();
  }
  return rows;
}

const INGEST_BATCH_EVENTS = 5000;

/**
 * Ingest with and without a webhook subscribed to `events.ingested` (one delivery per ingest
 * request): one client sends NDJSON batches of new events for the run's duration, alternating
 * runs; the ratio of the best events/s.
 */
async function ingestCost(ctx: WebhookBenchContext, subscribe: () => Promise<string>, unsubscribe: (id: string) => Promise<unknown>): Promise<ScenarioRow> {
  const url = `${ctx.service.baseUrl}/admin/v1/companies/${ctx.company}/events`;
  let sequence = 0;
  const batchBody = () => {
    const lines: string[] = [];
    for (let i = 0; i < INGEST_BATCH_EVENTS; i++) {
      sequence++;
      lines.push(
        JSON.stringify({
          id: `wh-bench-${sequence}`,
          type: 'step_completed',
          flow_key: 'bench-flow',
          step_key: `step-${sequence % 50}`,
          user_id: `user-${sequence % 200}`,
        }),
      );
    }
    return lines.join('\n');
  };
  const run = async (): Promise<number> => {
    const until = performance.now() + ctx.settings.durationSeconds * 1000;
    const started = performance.now();
    let events = 0;
    while (performance.now() < until) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${ctx.adminToken}`, 'content-type': 'application/x-ndjson' },
        body: batchBody(),
      });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`ingest answered ${response.status}: ${text.slice(0, 300)}`);
      events += INGEST_BATCH_EVENTS;
    }
    return events / ((performance.now() - started) / 1000);
  };
  const without: number[] = [];
  const withHook: number[] = [];
  for (let round = 0; round < ctx.settings.runs; round++) {
    without.push(await run());
    const id = await subscribe();
    withHook.push(await run());
    await unsubscribe(id);
  }
  const bestWithout = Math.max(...without);
  const bestWith = Math.max(...withHook);
  const ratio = bestWith / bestWithout;
  return {
    name: `webhook-ingest-cost: NDJSON ingest of ${INGEST_BATCH_EVENTS} events a request with an events.ingested webhook`,
    value: bestWith,
    unit: 'events/s',
    ratio,
    baseline: `the same without a webhook (${bestWithout.toFixed(0)} events/s)`,
    target: '>= 0.90x',
    met: ratio >= 0.9,
  };
}
