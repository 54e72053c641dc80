import { Agent, request, type ClientRequest } from 'node:http';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { companyId } from './data.js';
import { getBytes, jsonRequest } from './http-client.js';
import type { RunningProcess } from './processes.js';
import type { ScenarioRow } from './report.js';

const FEED_TARGET_SQLITE = 200_000;
const gunzipAsync = promisify(gunzip);

/**
 * Follows GET /v1/events/changes?limit=10000 from the beginning to the end of every company's
 * feed, as a warehouse copying every event would: one client, one request at a time. The client
 * shares the machine's CPUs, so it does as little as it can: `node:http` on one kept-alive
 * connection, and of each page it reads only `count` (the first bytes) and `next_cursor` (the
 * last), without decoding the rest into a string (undici's `fetch` and `text()` on each 5.5 MB
 * page cost the client more than the service's own work: docs/benchmarks.md, "The feed's
 * client"). `identity` asks for the page as it is (a follower beside the service); `gzip` for it
 * compressed (a follower across a slow link), which adds the service's compression to each page
 * and the client's decompression.
 */
export async function followFeed(
  service: RunningProcess,
  tokenOf: (company: string) => string,
  companies: number,
  dbKind: string,
  encoding: 'identity' | 'gzip',
): Promise<ScenarioRow> {
  let events = 0;
  let pages = 0;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const started = performance.now();
  try {
    for (let i = 0; i < companies; i++) {
      const company = companyId(i);
      const headers = { authorization: `Bearer ${tokenOf(company)}`, 'accept-encoding': encoding };
      let cursor: string | undefined;
      for (;;) {
        const url = `${service.baseUrl}/v1/events/changes?limit=10000${cursor ? `&after=${cursor}` : ''}`;
        const response = await getBytes(agent, url, headers);
        const body = response.encoding === 'gzip' ? await gunzipAsync(response.body) : response.body;
        if (response.status !== 200) throw new Error(`change feed answered ${response.status}: ${body.toString('utf8', 0, 300)}`);
        pages++;
        const count = Number(/^\{"count":(\d+)/.exec(body.toString('latin1', 0, 32))?.[1]);
        const next = /"next_cursor":"([\w-]+)"\}$/.exec(body.toString('latin1', Math.max(0, body.length - 128)))?.[1];
        if (!Number.isInteger(count) || next === undefined) throw new Error('unexpected change-feed page');
        events += count;
        cursor = next;
        if (count < 10_000) break;
      }
    }
  } finally {
    agent.destroy();
  }
  const seconds = (performance.now() - started) / 1000;
  const rate = events / seconds;
  const target = dbKind === 'sqlite' && encoding === 'identity' ? FEED_TARGET_SQLITE : undefined;
  return {
    name: `feed-follow: GET /v1/events/changes?limit=10000 following next_cursor, every company, accept-encoding ${encoding}`,
    value: rate,
    unit: 'events/s',
    detail: `${events} events in ${pages} pages, ${seconds.toFixed(1)} s`,
    ...(target ? { target: `>= ${target.toLocaleString('en')} events/s`, met: rate >= target } : {}),
  };
}

interface StreamClient {
  request: ClientRequest;
  arrivals: Map<string, number>;
}

/**
 * Opens `clients` SSE connections to GET /v1/events/stream of one company, then ingests one
 * event at a time and times its arrival at every client, from just before the ingest request.
 */
export async function streamFanOut(
  service: RunningProcess,
  token: string,
  adminToken: string,
  company: string,
  clients: number,
  rounds: number,
  settleMs: number,
): Promise<ScenarioRow[]> {
  const rssBefore = service.rss();
  let peakRss = rssBefore;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, service.rss())), 50);
  const open: StreamClient[] = [];
  try {
    const connecting: Promise<void>[] = [];
    for (let i = 0; i < clients; i++) {
      const arrivals = new Map<string, number>();
      connecting.push(
        new Promise((resolve, reject) => {
          const req = request(`${service.baseUrl}/v1/events/stream`, { headers: { authorization: `Bearer ${token}` } });
          open.push({ request: req, arrivals });
          req.on('error', reject);
          req.on('response', (response) => {
            if (response.statusCode !== 200) reject(new Error(`stream answered ${response.statusCode}`));
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => {
              const now = performance.now();
              for (const match of chunk.matchAll(/"id":"(fanout-[\w-]+)"/g)) if (!arrivals.has(match[1]!)) arrivals.set(match[1]!, now);
            });
            resolve();
          });
          req.end();
        }),
      );
    }
    await Promise.all(connecting);
    // Every client has its headers; give the service a moment to settle before the first event.
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    const rssConnected = service.rss();
    const latencies: number[] = [];
    let missing = 0;
    for (let round = 0; round < rounds; round++) {
      const id = `fanout-${Date.now()}-${round}`;
      const sent = performance.now();
      const { status, json } = await jsonRequest('POST', `${service.baseUrl}/admin/v1/companies/${company}/events`, adminToken, [
        { id, type: 'bench_fan_out' },
      ]);
      if (status !== 200) throw new Error(`ingest answered ${status}: ${JSON.stringify(json)}`);
      const deadline = performance.now() + 10_000;
      while (open.some((client) => !client.arrivals.has(id)) && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      for (const client of open) {
        const at = client.arrivals.get(id);
        if (at === undefined) missing++;
        else latencies.push(at - sent);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    latencies.sort((a, b) => a - b);
    const quantile = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
    const p99 = quantile(0.99);
    const grownMb = (Math.max(peakRss, service.rss()) - rssBefore) / 2 ** 20;
    return [
      {
        name: `stream-fanout: ${clients} stream clients, one new event reaches all (from the ingest request)`,
        p50Ms: Math.round(quantile(0.5)),
        p99Ms: Math.round(p99),
        errors: missing,
        detail: `${rounds} events x ${clients} clients; max ${Math.round(latencies.at(-1) ?? Number.NaN)} ms`,
        target: 'p99 < 1000 ms',
        met: p99 < 1000 && missing === 0,
      },
      {
        name: `stream-fanout: service RSS growth with ${clients} stream clients`,
        value: grownMb,
        unit: 'MB',
        detail: `${((rssConnected - rssBefore) / 2 ** 20).toFixed(1)} MB once connected, peak ${(peakRss / 2 ** 20).toFixed(0)} MB`,
        target: '< 50 MB',
        met: grownMb < 50,
      },
    ];
  } finally {
    clearInterval(sampler);
    for (const client of open) client.request.destroy();
  }
}
