import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { RenderUsage } from '../../domain/templates/pdf-renderer.port.js';
import type { RenderObserver } from '../../domain/templates/render-observer.port.js';

/** A simple page renders in tens of milliseconds; the default render timeout is 15 s. */
const RENDER_SECONDS_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30];
const WAIT_SECONDS_BUCKETS = [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15];

export function createPdfRenderMetrics(registry: Registry, usage: () => RenderUsage): RenderObserver {
  const registers = [registry];
  const renders = new Counter({
    name: 'wrs_pdf_renders_total',
    help: 'PDF renders finished, by outcome: rendered, rejected (the template cannot render the record), timeout, unavailable (no place on a thread, or the thread lost).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const renderSeconds = new Histogram({
    name: 'wrs_pdf_render_duration_seconds',
    help: 'Time a PDF render spent on its render thread, by outcome; waiting for a place excluded.',
    labelNames: ['outcome'] as const,
    buckets: RENDER_SECONDS_BUCKETS,
    registers,
  });
  const waitSeconds = new Histogram({
    name: 'wrs_pdf_render_queue_wait_seconds',
    help: 'Time a PDF render waited for a place on a render thread.',
    buckets: WAIT_SECONDS_BUCKETS,
    registers,
  });
  new Gauge({
    name: 'wrs_pdf_render_queue_length',
    help: 'PDF renders waiting for a place on a render thread.',
    registers,
    collect() {
      this.set(usage().waiting);
    },
  });
  new Gauge({
    name: 'wrs_pdf_renders_in_progress',
    help: 'PDF renders holding a place on a render thread.',
    registers,
    collect() {
      this.set(usage().rendering);
    },
  });
  new Gauge({
    name: 'wrs_pdf_render_threads',
    help: 'PDF render threads running (they start on demand and stop when idle).',
    registers,
    collect() {
      this.set(usage().threads);
    },
  });
  return {
    renderFinished({ outcome, waitSeconds: waited, renderSeconds: rendered }) {
      renders.inc({ outcome });
      waitSeconds.observe(waited);
      if (rendered !== null) renderSeconds.observe({ outcome }, rendered);
    },
  };
}
