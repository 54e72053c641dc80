/** Told how each events ingest ended (metrics listen here). */
export interface IngestObserver {
  /** The request's events are committed. */
  stored(events: number): void;
  /** The request was refused for bad events or a bad body; nothing was stored. */
  refused(): void;
}
