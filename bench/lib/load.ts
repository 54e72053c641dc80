import { createHistogram } from 'node:perf_hooks';
import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT';
  body?: string;
  /** autocannon request sequence, for scenarios whose next request depends on the last answer. */
  requests?: autocannon.Request[];
}

/**
 * One fixed-connection, fixed-duration run of autocannon against a URL. Its own latency histogram
 * keeps whole milliseconds, which makes a p50 of 1.9 ms a 1 and the tail of a fast read a
 * multiple of it; each answer's time is kept here to the microsecond instead (every answer, as
 * autocannon counts them).
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const latencyMicros = createHistogram();
  // autocannon counts requests, and checks whether the run is over, once a sample interval (a
  // second by default): a run shorter than a second (the smoke run's) samples at its own length.
  const sampleMs = Math.min(1000, options.durationSeconds * 1000);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.durationSeconds,
        sampleInt: sampleMs,
        headers: options.headers ?? {},
        method: options.method ?? 'GET',
        ...(options.body === undefined ? {} : { body: options.body }),
        ...(options.requests ? { requests: options.requests } : {}),
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    instance.on('response', (_client, _statusCode, _bytes, responseTimeMs) => latencyMicros.record(Math.max(1, Math.round(responseTimeMs * 1000))));
  });
  const percentileMs = (p: number) => (latencyMicros.count === 0 ? 0 : latencyMicros.percentile(p) / 1000);
  return {
    requestsPerSecond: (result.requests.average * 1000) / sampleMs,
    p50Ms: percentileMs(50),
    p99Ms: percentileMs(99),
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
