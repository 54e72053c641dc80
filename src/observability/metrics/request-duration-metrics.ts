import type { onResponseHookHandler } from 'fastify';
import type { Histogram, MetricValueWithName, Registry } from 'prom-client';

/** From a cached record read (about a millisecond) to a large ingest or page (seconds). */
const REQUEST_SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The route label of a request that matched no route (a 404): its path could be anything. */
const UNMATCHED_ROUTE = 'unmatched';

const NAME = 'wrs_http_request_duration_seconds';
const HELP = 'Time from receiving a request to sending the last byte of its answer, by method, route template and status code.';

export interface RequestDurations {
  /** `route` is a route template or a fixed word, never a path as requested: each value is a series kept forever. */
  observe(method: string, route: string, statusCode: number, seconds: number): void;
  /**
   * The hook that times every answer, registered by the app: labelled with the route's template
   * (`/v1/records/:record`), never the path as requested, since one series per record would grow
   * without bound. Fastify already notes when a request starts and its answer ends
   * (`reply.elapsedTime`), so the hook only reads them.
   */
  readonly onResponse: onResponseHookHandler;
}

type Labels = { readonly method: string; readonly route: string; readonly status_code: number };

/** One series: how many answers fell in each bucket (not cumulative; the last is +Inf), their sum and count. */
interface Series {
  readonly labels: Labels;
  readonly inBucket: Float64Array;
  sum: number;
  count: number;
}

/**
 * The request duration histogram, counted here and exposed through the prom-client registry as
 * a histogram of the same name, labels and buckets. Every request observes it, and prom-client's
 * own histogram checks the labels and hashes them into a key on each observation; here a series
 * is found by route, method and status in nested maps (the route and method strings are the
 * same objects request after request), and only a scrape builds labels.
 */
export function createRequestDurationMetrics(registry: Registry): RequestDurations {
  const routes = new Map<string, Map<string, Map<number, Series>>>();
  const all: Series[] = [];

  const seriesOf = (method: string, route: string, statusCode: number): Series => {
    let methods = routes.get(route);
    if (!methods) routes.set(route, (methods = new Map()));
    let statuses = methods.get(method);
    if (!statuses) methods.set(method, (statuses = new Map()));
    let series = statuses.get(statusCode);
    if (!series) {
      series = { labels: { method, route, status_code: statusCode }, inBucket: new Float64Array(REQUEST_SECONDS_BUCKETS.length + 1), sum: 0, count: 0 };
      statuses.set(statusCode, series);
      all.push(series);
    }
    return series;
  };

  registry.registerMetric({
    name: NAME,
    help: HELP,
    type: 'histogram',
    aggregator: 'sum',
    get: async () => ({ name: NAME, help: HELP, type: 'histogram', aggregator: 'sum', values: all.flatMap(exported) }),
    reset: () => {
      for (const series of all) {
        series.inBucket.fill(0);
        series.sum = 0;
        series.count = 0;
      }
    },
  } as unknown as Histogram);

  const observe = (method: string, route: string, statusCode: number, seconds: number): void => {
    const series = seriesOf(method, route, statusCode);
    let bucket = 0;
    while (bucket < REQUEST_SECONDS_BUCKETS.length && seconds > REQUEST_SECONDS_BUCKETS[bucket]!) bucket++;
    series.inBucket[bucket]!++;
    series.sum += seconds;
    series.count++;
  };

  return {
    observe,
    onResponse(request, reply, done) {
      observe(request.method, request.routeOptions.url ?? UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime / 1000);
      done();
    },
  };
}

/** A series as prom-client exports a histogram's: cumulative buckets with `le` first, then +Inf, sum and count. */
function exported(series: Series): MetricValueWithName<string>[] {
  const bucketName = `${NAME}_bucket`;
  const values: MetricValueWithName<string>[] = [];
  let cumulative = 0;
  REQUEST_SECONDS_BUCKETS.forEach((bound, i) => {
    cumulative += series.inBucket[i]!;
    values.push({ metricName: bucketName, labels: { le: bound, ...series.labels }, value: cumulative });
  });
  values.push(
    { metricName: bucketName, labels: { le: '+Inf', ...series.labels }, value: series.count },
    { metricName: `${NAME}_sum`, labels: { ...series.labels }, value: series.sum },
    { metricName: `${NAME}_count`, labels: { ...series.labels }, value: series.count },
  );
  return values;
}
