import type pg from 'pg';

/** What a pooled client has under way: how many queries, and since when the oldest has waited. */
interface Waiting {
  queries: number;
  since: number;
}

export interface ReadTimeouts {
  /** Watches `answer`, the answer of a query just sent on `client`; past the timeout the connection is closed. */
  watch<T>(client: pg.PoolClient, answer: Promise<T>): Promise<T>;
  stop(): void;
}

/**
 * The client-side read timeout of PostgreSQL queries: a query still unanswered this long after
 * it was sent (the server gone silent, a partition) fails with its connection, which is closed,
 * so the pool discards that client instead of handing it out with an answer still owed.
 *
 * `pg` has one of its own (`query_timeout`), but it arms a timer for every query whose closure
 * holds the query and, by it, its rows: with it the rows of nearly every page outlived two young
 * collections and were promoted, and full collections came often (docs/benchmarks.md,
 * "Mechanisms and their verdicts"). Here one timer for the whole pool looks over the clients
 * with a query under way.
 */
export function createReadTimeouts(timeoutMs: number): ReadTimeouts {
  const waiting = new Map<pg.PoolClient, Waiting>();
  const expire = (): void => {
    const now = performance.now();
    for (const [client, { since }] of waiting) {
      if (now - since < timeoutMs) continue;
      waiting.delete(client);
      // pg fails the query under way with "Connection terminated unexpectedly".
      (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    }
  };
  const timer = setInterval(expire, Math.min(1000, Math.max(50, timeoutMs / 10)));
  timer.unref();

  const settled = (client: pg.PoolClient): void => {
    const state = waiting.get(client);
    if (!state) return;
    state.queries -= 1;
    if (state.queries === 0) waiting.delete(client);
    // The next query queued on this client is sent now.
    else state.since = performance.now();
  };

  return {
    watch(client, answer) {
      const state = waiting.get(client);
      if (state) state.queries += 1;
      else waiting.set(client, { queries: 1, since: performance.now() });
      answer.then(
        () => settled(client),
        () => settled(client),
      );
      return answer;
    },
    stop: () => clearInterval(timer),
  };
}
