import { collectDefaultMetrics, Registry } from 'prom-client';
import { clusterScrape } from './cluster-metrics.js';
import type { IngestObserver } from '../../domain/events/ingest-observer.port.js';
import type { RenderUsage } from '../../domain/templates/pdf-renderer.port.js';
import type { RenderObserver } from '../../domain/templates/render-observer.port.js';
import type { DeliveryObserver } from '../../domain/webhooks/delivery-observer.port.js';
import { registerDatabasePoolMetrics, type ConnectionUsage } from './database-pool-metrics.js';
import { createIngestMetrics } from './ingest-metrics.js';
import { createPdfRenderMetrics } from './pdf-render-metrics.js';
import { createRateLimitStoreMetrics, type RateLimitStoreObserver } from './rate-limit-store-metrics.js';
import { createRetentionMetrics } from './retention-metrics.js';
import type { RetentionObserver } from '../../domain/retention/retention-observer.port.js';
import { createRequestDurationMetrics, type RequestDurations } from './request-duration-metrics.js';
import { createWebhookDeliveryMetrics } from './webhook-delivery-metrics.js';

/** Figures read when scraped rather than counted as they change. */
export interface MetricsSources {
  readonly databasePool: () => ConnectionUsage;
  readonly pdfRenders: () => RenderUsage;
}

export interface ServiceMetricsOptions {
  /** This process is a cluster worker: a scrape answers the sum of every worker's metrics (cluster-metrics.ts). */
  readonly acrossCluster?: boolean;
}

/**
 * The service's Prometheus metrics: one registry per app context (never prom-client's global
 * one, so that several apps in one process, as in the tests, keep their figures apart), and an
 * observer for each part of the service that reports.
 */
export interface ServiceMetrics {
  /** The Prometheus text exposition format, version 0.0.4. */
  readonly contentType: string;
  /** Every metric of this registry (of every worker's, across a cluster), in the text format. */
  scrape(): Promise<string>;
  readonly requests: RequestDurations;
  readonly pdfRenders: RenderObserver;
  readonly webhookDeliveries: DeliveryObserver;
  readonly ingests: IngestObserver;
  readonly rateLimitStore: RateLimitStoreObserver;
  readonly retention: RetentionObserver;
}

export function createServiceMetrics(sources: MetricsSources, options: ServiceMetricsOptions = {}): ServiceMetrics {
  const registry = new Registry();
  // Process CPU, memory, handles, GC and event-loop delay, under their standard names.
  collectDefaultMetrics({ register: registry });
  registerDatabasePoolMetrics(registry, sources.databasePool);
  return {
    contentType: registry.contentType,
    scrape: options.acrossCluster ? clusterScrape(registry) : () => registry.metrics(),
    requests: createRequestDurationMetrics(registry),
    pdfRenders: createPdfRenderMetrics(registry, sources.pdfRenders),
    webhookDeliveries: createWebhookDeliveryMetrics(registry),
    ingests: createIngestMetrics(registry),
    rateLimitStore: createRateLimitStoreMetrics(registry),
    retention: createRetentionMetrics(registry),
  };
}
