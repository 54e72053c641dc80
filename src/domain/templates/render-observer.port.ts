/** How one render ended: the PDF made, refused by its template, past its timeout, or never run or lost. */
export type RenderOutcome = 'rendered' | 'rejected' | 'timeout' | 'unavailable';

export interface RenderObservation {
  readonly outcome: RenderOutcome;
  /** Time spent waiting for a place on a render thread. */
  readonly waitSeconds: number;
  /** Time on the thread; null when the render never got a place. */
  readonly renderSeconds: number | null;
}

/** Told about every render a renderer finishes, whatever its outcome (metrics listen here). */
export interface RenderObserver {
  renderFinished(observation: RenderObservation): void;
}
