import { availableParallelism, freemem, totalmem } from 'node:os';

/** What one render thread is budgeted: pdfme, its plugins and font in the thread's own V8 heap, and a render's work. */
export const RENDER_THREAD_BUDGET_BYTES = 80 * 2 ** 20;

export interface RenderPoolInputs {
  /** CPUs of the machine (or of the container). */
  readonly cpus: number;
  /** Processes serving the port (WRS_WORKERS); they share the CPUs and the memory. */
  readonly processes: number;
  /** Memory the render threads of all processes may take. */
  readonly memoryBytes: number;
  readonly threadBudgetBytes: number;
}

/**
 * Render threads for one process: its share of the CPUs less the one its serving thread needs,
 * fewer if its share of the memory does not hold them; at least one. Renders on every CPU would
 * leave each request of every other company waiting for a core behind a company's render burst.
 */
export function renderThreadCount(inputs: RenderPoolInputs): number {
  const processes = Math.max(1, inputs.processes);
  const byCpu = Math.floor(inputs.cpus / processes) - 1;
  const byMemory = Math.floor(inputs.memoryBytes / processes / inputs.threadBudgetBytes);
  return Math.max(1, Math.min(byCpu, byMemory));
}

/**
 * Half of what is free now, or of what the container's memory limit (cgroup) leaves, whichever
 * is less: the other half stays for the serving process itself and the rest of the machine.
 */
export function memoryForRenderThreads(): number {
  const limit = process.constrainedMemory?.() ?? 0;
  const leftByLimit = limit > 0 && limit < totalmem() ? limit - process.memoryUsage.rss() : Infinity;
  return Math.max(0, Math.min(freemem(), leftByLimit)) / 2;
}

/** The default render threads of one of `processes` serving processes, from this machine's CPUs and memory. */
export function defaultRenderThreads(processes: number): number {
  return renderThreadCount({
    cpus: availableParallelism(),
    processes,
    memoryBytes: memoryForRenderThreads(),
    threadBudgetBytes: RENDER_THREAD_BUDGET_BYTES,
  });
}
