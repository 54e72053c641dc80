// The request duration histogram is counted by the service itself (request-duration-metrics.ts):
// what a scrape shows must be what prom-client's own histogram shows for the same observations.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Histogram, Registry } from 'prom-client';
import { createRequestDurationMetrics } from '../../src/observability/metrics/request-duration-metrics.js';

const OBSERVED: [string, string, number, number][] = [
  ['GET', '/v1/records/:record', 200, 0.0004],
  ['GET', '/v1/records/:record', 200, 0.001],
  ['GET', '/v1/records/:record', 200, 0.0010001],
  ['GET', '/v1/records/:record', 404, 0.02],
  ['GET', '/v1/records/:record', 200, 30],
  ['POST', '/v1/records/:typeId', 201, 31],
  ['GET', 'unmatched', 404, 0],
];

function prometheusOwn(): { registry: Registry; histogram: Histogram<'method' | 'route' | 'status_code'> } {
  const registry = new Registry();
  const histogram = new Histogram({
    name: 'wrs_http_request_duration_seconds',
    help: 'Time from receiving a request to sending the last byte of its answer, by method, route template and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  return { registry, histogram };
}

it('scrapes as prom-client’s histogram does for the same observations, bucket bounds included', async () => {
  const ours = new Registry();
  const durations = createRequestDurationMetrics(ours);
  const theirs = prometheusOwn();
  for (const [method, route, status, seconds] of OBSERVED) {
    durations.observe(method, route, status, seconds);
    theirs.histogram.observe({ method, route, status_code: status }, seconds);
  }
  const text = await ours.metrics();
  assert.equal(text, await theirs.registry.metrics());
  assert.match(text, /wrs_http_request_duration_seconds_bucket\{le="0.001",method="GET",route="\/v1\/records\/:record",status_code="200"\} 2/);
  assert.match(text, /wrs_http_request_duration_seconds_bucket\{le="30",method="GET",route="\/v1\/records\/:record",status_code="200"\} 4/);
  assert.match(text, /wrs_http_request_duration_seconds_bucket\{le="\+Inf",method="POST",route="\/v1\/records\/:typeId",status_code="201"\} 1/);

  ours.resetMetrics();
  theirs.histogram.reset();
  assert.match(await ours.metrics(), /_count\{method="GET",route="\/v1\/records\/:record",status_code="200"\} 0/);
});
