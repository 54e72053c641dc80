/** What one attempt decided: delivered, to be tried again, or given up. */
export type AttemptOutcome = 'delivered' | 'retrying' | 'failed';

/** Told about every delivery attempt the worker finishes (metrics listen here). */
export interface DeliveryObserver {
  /**
   * `lagSeconds`, for a delivered attempt only: from the change that caused the delivery (the
   * delivery's creation) to the receiver's answer, retries included.
   */
  attemptFinished(outcome: AttemptOutcome, lagSeconds: number | null): void;
}
