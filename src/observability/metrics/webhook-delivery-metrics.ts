import { Counter, Histogram, type Registry } from 'prom-client';
import type { DeliveryObserver } from '../../domain/webhooks/delivery-observer.port.js';

/** From a prompt delivery (tens of milliseconds) to one made after a day of retries. */
const LAG_SECONDS_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 900, 3600, 14_400, 86_400];

export function createWebhookDeliveryMetrics(registry: Registry): DeliveryObserver {
  const attempts = new Counter({
    name: 'wrs_webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts, by outcome: delivered (2xx), retrying (to be tried again), failed (given up).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const lag = new Histogram({
    name: 'wrs_webhook_delivery_lag_seconds',
    help: "Time from the change that caused a webhook delivery to the receiver's 2xx answer, retries included.",
    buckets: LAG_SECONDS_BUCKETS,
    registers: [registry],
  });
  return {
    attemptFinished(outcome, lagSeconds) {
      attempts.inc({ outcome });
      if (lagSeconds !== null) lag.observe(Math.max(0, lagSeconds));
    },
  };
}
