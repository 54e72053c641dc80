import cluster from 'node:cluster';
import { loadConfig } from '../../config/config.js';
import type { TracingSettings } from '../../config/tracing.js';

const OFF: TracingSettings = { enabled: false, serviceName: '' };

/**
 * Traces follow requests, so only a process that serves them is traced: `wrs serve` on its own,
 * or each cluster worker (the primary only forks and watches). The operator commands are not.
 * A configuration that does not load leaves tracing off; the command reports it as it always has.
 */
export function tracingOfThisProcess(argv: readonly string[], env: NodeJS.ProcessEnv): TracingSettings {
  if (argv[0] !== 'serve') return OFF;
  let config;
  try {
    config = loadConfig(env);
  } catch {
    return OFF;
  }
  if (cluster.isPrimary && config.server.workers > 1) return OFF;
  return config.tracing;
}
