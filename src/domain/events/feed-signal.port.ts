/**
 * Tells stream clients that a company's events changed. Storage implements it: in-process on
 * SQLite, and on PostgreSQL also through NOTIFY/LISTEN so that every replica hears it.
 */
export interface FeedSignal {
  /** After a commit that stored events of the company; never waits and never throws. */
  changed(companyId: string): void;
  /**
   * Calls `listener` when a company's events changed, in this process or another replica, and
   * with `null` when changes may have been missed (a lost listening connection came back).
   * Returns the function that stops listening.
   */
  listen(listener: (companyId: string | null) => void): () => void;
  close(): Promise<void>;
}
