/**
 * How hard the Lob adapter tries before giving up. Bounded in attempts and in total waiting,
 * so a list request can never hang on a provider that keeps refusing.
 */
export interface LobRetryPolicy {
  /** Retries of one Lob call after its first attempt (429, 5xx, network errors). */
  readonly maxRetries: number;
  /** First backoff delay; it doubles on each retry. */
  readonly baseDelayMs: number;
  /**
   * Total waiting allowed across all retries of one list request. A 429 asking for a longer
   * wait than what is left is answered 503 with Retry-After at once.
   */
  readonly budgetMs: number;
  readonly sleep: (ms: number) => Promise<void>;
}

export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The waiting left to one list request; shared by every Lob call that request makes. */
export class RetryBudget {
  private spentMs = 0;
  constructor(private readonly policy: LobRetryPolicy) {}

  /** Waits `ms` and returns true, or returns false when the wait does not fit the policy. */
  async wait(ms: number, retriesSoFar: number): Promise<boolean> {
    const delay = Math.max(0, Math.ceil(ms));
    if (retriesSoFar >= this.policy.maxRetries || this.spentMs + delay > this.policy.budgetMs) return false;
    this.spentMs += delay;
    await this.policy.sleep(delay);
    return true;
  }

  backoffMs(retriesSoFar: number): number {
    return this.policy.baseDelayMs * 2 ** retriesSoFar;
  }
}

/**
 * How long Lob asks us to wait after a 429: `Retry-After` (seconds or an HTTP date), else the
 * rate-limit reset header (`X-Rate-Limit-Reset`, or `RateLimit-Reset` as in Lob's OpenAPI
 * description: UTC epoch seconds; a small number is taken as seconds from now). Undefined when
 * Lob says nothing usable.
 */
export function rateLimitWaitMs(headers: Headers, nowMs: number): number | undefined {
  const retryAfter = headers.get('retry-after')?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Number(retryAfter) * 1000;
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - nowMs);
  }
  const reset = (headers.get('x-rate-limit-reset') ?? headers.get('ratelimit-reset'))?.trim();
  if (reset && /^\d+(\.\d+)?$/.test(reset)) {
    const value = Number(reset);
    return value >= 1_000_000_000 ? Math.max(0, value * 1000 - nowMs) : value * 1000;
  }
  return undefined;
}
