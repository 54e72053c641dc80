import type { RenderOutcome, RenderTask } from './render-task.js';

/** The service asks a render thread for one render; several may be pending on a thread at once. */
export interface RenderRequestMessage {
  id: number;
  task: RenderTask;
}

/**
 * A render thread's messages: it is ready (its render module has loaded); it is loading what one
 * render needs beyond the warm-up (`preparing`, then `prepared`); or a render's outcome.
 */
export type RenderThreadMessage = { type: 'ready' } | { type: 'preparing' | 'prepared'; id: number } | { type: 'outcome'; id: number; outcome: RenderOutcome };

/** What a render module exports (render-worker.ts, and the stand-ins of the tests). */
export interface RenderModule {
  default(task: RenderTask): RenderOutcome | Promise<RenderOutcome>;
  /** Loads what renders need (pdfme, fonts) before the thread says it is ready. */
  warmup?(): unknown;
  /**
   * Loads what this task needs that the warm-up left out (pdfme's full plugin set), or answers
   * undefined when nothing is left to load. The time it takes is not charged to the render.
   */
  prepare?(task: RenderTask): Promise<unknown> | undefined;
}
