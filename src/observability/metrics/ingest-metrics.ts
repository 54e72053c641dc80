import { Counter, type Registry } from 'prom-client';
import type { IngestObserver } from '../../domain/events/ingest-observer.port.js';

export function createIngestMetrics(registry: Registry): IngestObserver {
  const requests = new Counter({
    name: 'wrs_ingest_requests_total',
    help: 'Events ingest requests finished, by outcome: stored, or refused for bad events or a bad body (nothing stored).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const events = new Counter({
    name: 'wrs_ingested_events_total',
    help: 'Events stored by ingest requests.',
    registers: [registry],
  });
  return {
    stored(count) {
      requests.inc({ outcome: 'stored' });
      events.inc(count);
    },
    refused() {
      requests.inc({ outcome: 'refused' });
    },
  };
}
