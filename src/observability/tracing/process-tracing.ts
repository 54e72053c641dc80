import type { TracingSettings } from '../../config/tracing.js';
import type { RunningTracing } from './start-tracing.js';

/**
 * The tracing of this process. The SDK is process-wide by nature (it registers the global
 * tracer provider and patches modules as they load), so its handle is kept here, where the
 * entry point starts it and the shutdown of `wrs serve` flushes it.
 */
let running: RunningTracing | undefined;

/**
 * Starts the SDK when the settings turn tracing on; with tracing off, no OpenTelemetry module
 * is loaded. Must run before the service's modules are imported, so `pg` is patched as it loads.
 */
export async function startTracingWhenEnabled(settings: TracingSettings): Promise<void> {
  if (!settings.enabled || running) return;
  const { startTracing } = await import('./start-tracing.js');
  running = startTracing(settings);
}

/** Sends the spans not sent yet and stops tracing; does nothing when tracing is off. Never throws. */
export async function stopTracing(): Promise<void> {
  const stopping = running;
  running = undefined;
  await stopping?.shutdown().catch(() => undefined);
}
