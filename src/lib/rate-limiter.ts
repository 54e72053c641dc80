import type { Clock } from './clock.js';

/** The outcome of taking one request from a key's budget, with what the RateLimit headers say. */
export interface RateDecision {
  readonly allowed: boolean;
  /** Requests a minute, also the largest burst. */
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the budget is full again. */
  readonly resetSeconds: number;
  /** Seconds until the next request is allowed (0 when it is allowed now). */
  readonly retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

const WINDOW_MS = 60_000;

/**
 * Token buckets in memory, one per key: `perMinute` tokens, refilled continuously at
 * `perMinute` a minute. Memory is bounded: a bucket that has refilled completely is the same
 * as no bucket and is dropped by `sweep()`, and past `maxKeys` the least recently used key is
 * forgotten (it starts again with a full budget).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly tokensPerMs: number;

  constructor(
    readonly perMinute: number,
    private readonly clock: Clock,
    private readonly maxKeys = 100_000,
  ) {
    if (!Number.isInteger(perMinute) || perMinute < 1) throw new RangeError('perMinute must be a positive integer');
    this.tokensPerMs = perMinute / WINDOW_MS;
  }

  take(key: string): RateDecision {
    const now = this.clock.now().getTime();
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = this.refilled(bucket, now);
    bucket.at = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    // Re-inserting keeps the Map in least-recently-used order for eviction.
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
    return {
      allowed,
      limit: this.perMinute,
      remaining: Math.floor(bucket.tokens),
      resetSeconds: Math.ceil((this.perMinute - bucket.tokens) / this.tokensPerMs / 1000),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / this.tokensPerMs / 1000)),
    };
  }

  /** Drops every bucket that has refilled completely; returns how many remain. */
  sweep(): number {
    const now = this.clock.now().getTime();
    for (const [key, bucket] of this.buckets) {
      if (this.refilled(bucket, now) >= this.perMinute) this.buckets.delete(key);
    }
    return this.buckets.size;
  }

  get size(): number {
    return this.buckets.size;
  }

  private refilled(bucket: Bucket, now: number): number {
    return Math.min(this.perMinute, bucket.tokens + Math.max(0, now - bucket.at) * this.tokensPerMs);
  }
}
