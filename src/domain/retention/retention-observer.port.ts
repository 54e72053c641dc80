/** Told what retention removed and what it kept (metrics listen here). */
export interface RetentionObserver {
  /** A batch of this many events was removed. */
  removed(events: number): void;
  /** The oldest event the database keeps after a sweep (its created_at), or null when it keeps none. */
  oldestKept(createdAt: string | null): void;
}
