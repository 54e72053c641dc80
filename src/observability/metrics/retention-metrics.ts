import { Counter, Gauge, type Registry } from 'prom-client';
import type { RetentionObserver } from '../../domain/retention/retention-observer.port.js';

export function createRetentionMetrics(registry: Registry): RetentionObserver {
  const removed = new Counter({
    name: 'wrs_events_removed_total',
    help: "Events removed by this process because they were older than their company's retention period.",
    registers: [registry],
  });
  const oldest = new Gauge({
    name: 'wrs_events_oldest_kept_timestamp_seconds',
    help: "created_at of the oldest event the database keeps, as of this process's last retention sweep (Unix seconds); absent before the first sweep or with no events.",
    registers: [registry],
    // Every worker of a cluster reads the same database: the oldest of their readings, not their sum.
    aggregator: 'min',
  });
  return {
    removed(events) {
      removed.inc(events);
    },
    oldestKept(createdAt) {
      if (createdAt === null) oldest.reset();
      else oldest.set(Date.parse(createdAt) / 1000);
    },
  };
}
