import type { IdempotencyEntry, KeptAnswer } from './kept-answer.js';

/** Where a key is: company, route scope (e.g. `records.create`) and the client's key. */
export interface IdempotencyTarget {
  readonly companyId: string;
  readonly scope: string;
  readonly key: string;
}

/** A running request's hold on a key; `token` tells this holder from a later one. */
export interface IdempotencyClaim {
  readonly token: string;
  readonly requestHash: string | null;
  readonly expiresAt: string;
}

export interface IdempotencyRepository {
  /** Inserts the running claim unless the key exists (one atomic insert); true when this call inserted it. */
  claim(target: IdempotencyTarget, claim: IdempotencyClaim): Promise<boolean>;
  /** Replaces an entry whose time ran out (`expires_at <= now`) by this claim; true when it did. */
  takeOver(target: IdempotencyTarget, claim: IdempotencyClaim, now: string): Promise<boolean>;
  find(target: IdempotencyTarget): Promise<IdempotencyEntry | undefined>;
  /** Moves a running claim's lease on, while its holder still has it. */
  renew(target: IdempotencyTarget, token: string, expiresAt: string): Promise<void>;
  /** Keeps the answer of the holder's request until `expiresAt`. */
  complete(target: IdempotencyTarget, token: string, requestHash: string, answer: KeptAnswer, expiresAt: string): Promise<void>;
  /** Frees the key, if the holder still has it. */
  release(target: IdempotencyTarget, token: string): Promise<void>;
  /** Deletes every entry whose time ran out; answers how many. */
  deleteExpired(now: string): Promise<number>;
}
