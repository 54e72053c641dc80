import { trace } from '@opentelemetry/api';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { TracingSettings } from '../../config/tracing.js';
import { traceSqliteQueries } from './sqlite-spans.js';

export interface RunningTracing {
  /** Ends tracing and sends the spans not sent yet. */
  shutdown(): Promise<void>;
}

/**
 * The OpenTelemetry Node SDK for traces only: the exporter, sampler, propagators and resource
 * come from the standard variables; metrics are served by GET /metrics and logs go to stdout, so
 * OTEL_METRICS_EXPORTER and OTEL_LOGS_EXPORTER are not followed. Loaded only when tracing is on.
 */
export function startTracing(settings: TracingSettings): RunningTracing {
  const sdk = new NodeSDK({
    serviceName: settings.serviceName,
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      // Outgoing calls (webhook deliveries, Lob) are traced when a request makes them, not from the worker's own loop.
      new HttpInstrumentation({ requireParentforOutgoingSpans: true }),
      // The route's request span and its handler; a span per lifecycle hook would triple a trace for little.
      new FastifyOtelInstrumentation({ registerOnInitialization: true, instrumentHooks: false }),
      new PgInstrumentation({ requireParentSpan: true }),
      // trace_id and span_id on every log line written inside a span; the lines themselves stay on stdout.
      new PinoInstrumentation({ disableLogSending: true }),
    ],
  });
  sdk.start();
  const stopSqliteSpans = traceSqliteQueries(trace.getTracer('wrs-sqlite'));
  return {
    async shutdown() {
      stopSqliteSpans();
      await sdk.shutdown();
    },
  };
}
