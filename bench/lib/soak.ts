import autocannon from 'autocannon';
import type { LoadedData } from './load-data.js';
import type { RunningProcess } from './processes.js';

export interface SoakResult {
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  errors: number;
  non2xx: number;
  /** [seconds since start, RSS in MB] every sample interval. */
  rssSamples: Array<[number, number]>;
  /** RSS growth from the end of the first tenth of the run to the end, MB. */
  rssGrowthMb: number;
}

/**
 * Mixed load held for a long time: reads, lists, creates and updates of records, event pages and
 * checks, round-robin on every connection. Errors must be 0 and RSS must stay flat.
 */
export async function soak(
  service: RunningProcess,
  loaded: LoadedData,
  token: string,
  options: { seconds: number; connections: number; sampleEverySeconds: number },
): Promise<SoakResult> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const record = (i: number) => loaded.recordIds[i % loaded.recordIds.length]!;
  const requests: autocannon.Request[] = [
    { method: 'GET', path: `/v1/records/${record(0)}` },
    { method: 'GET', path: `/v1/events?limit=100&flow_key=${loaded.flowKey}` },
    { method: 'GET', path: '/v1/records?limit=50' },
    { method: 'POST', path: `/v1/records/${loaded.recordTypeId}`, body: JSON.stringify({ f_title: 'Soak item', f_amount: 3.5 }) },
    { method: 'PATCH', path: `/v1/records/${record(3)}`, body: JSON.stringify({ f_amount: 7.25, status: 'in_review' }) },
    { method: 'GET', path: '/v1/checks?limit=20' },
    { method: 'GET', path: '/v1/events?limit=100&order_by=-created_at&type=user_flow_session_started' },
  ];
  const rssSamples: Array<[number, number]> = [[0, service.rss() / 2 ** 20]];
  const started = Date.now();
  const sampler = setInterval(() => {
    rssSamples.push([Math.round((Date.now() - started) / 1000), service.rss() / 2 ** 20]);
  }, options.sampleEverySeconds * 1000);
  try {
    const result = await autocannon({
      url: service.baseUrl,
      connections: options.connections,
      duration: options.seconds,
      headers,
      requests,
    });
    rssSamples.push([Math.round((Date.now() - started) / 1000), service.rss() / 2 ** 20]);
    const settled = rssSamples[Math.max(1, Math.floor(rssSamples.length / 10))]![1];
    return {
      seconds: options.seconds,
      requests: result.requests.total,
      requestsPerSecond: result.requests.average,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
      rssSamples,
      rssGrowthMb: rssSamples.at(-1)![1] - settled,
    };
  } finally {
    clearInterval(sampler);
  }
}

export function formatSoak(result: SoakResult): string {
  const flat = result.rssGrowthMb < 25;
  return [
    `## Soak: mixed load for ${result.seconds} s`,
    '',
    `- requests: ${result.requests} (${result.requestsPerSecond.toFixed(0)} req/s average)`,
    `- errors: ${result.errors + result.non2xx} (connection errors and timeouts ${result.errors}, non-2xx ${result.non2xx}); target 0: ${result.errors + result.non2xx === 0 ? 'met' : 'MISSED'}`,
    `- RSS growth after warm-up: ${result.rssGrowthMb.toFixed(1)} MB; target flat (< 25 MB): ${flat ? 'met' : 'MISSED'}`,
    '',
    '| seconds | RSS MB |',
    '|---:|---:|',
    ...result.rssSamples.map(([seconds, mb]) => `| ${seconds} | ${mb.toFixed(0)} |`),
    '',
  ].join('\n');
}
