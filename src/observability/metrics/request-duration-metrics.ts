import { Histogram, type Registry } from 'prom-client';

/** From a cached record read (about a millisecond) to a large ingest or page (seconds). */
const REQUEST_SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface RequestDurations {
  /** `route` is a route template or a fixed word, never a path as requested: each value is a series kept forever. */
  observe(method: string, route: string, statusCode: number, seconds: number): void;
}

export function createRequestDurationMetrics(registry: Registry): RequestDurations {
  const durations = new Histogram({
    name: 'wrs_http_request_duration_seconds',
    help: 'Time from receiving a request to sending the last byte of its answer, by method, route template and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: REQUEST_SECONDS_BUCKETS,
    registers: [registry],
  });
  // One labelled child per method, route template and status, found by a plain key: the
  // histogram would otherwise sort and join the labels of every request to find its series.
  // The routes are templates and the methods and statuses HTTP's own, so the map stays small.
  const series = new Map<string, Histogram.Internal<'method' | 'route' | 'status_code'>>();
  return {
    observe(method, route, statusCode, seconds) {
      const key = `${method} ${statusCode} ${route}`;
      let child = series.get(key);
      if (!child) series.set(key, (child = durations.labels({ method, route, status_code: statusCode })));
      child.observe(seconds);
    },
  };
}
