import { Counter, type Registry } from 'prom-client';

/** Told when the shared rate-limit store could not answer and the request was let through (fail open). */
export interface RateLimitStoreObserver {
  storeFailed(): void;
}

export function createRateLimitStoreMetrics(registry: Registry): RateLimitStoreObserver {
  const failures = new Counter({
    name: 'wrs_rate_limit_store_failures_total',
    help: 'Requests let through without a rate-limit decision because the shared store (Redis) did not answer.',
    registers: [registry],
  });
  return {
    storeFailed() {
      failures.inc();
    },
  };
}
