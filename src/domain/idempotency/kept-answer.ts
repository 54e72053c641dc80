/** The answer of a request with an Idempotency-Key, as it is replayed to a retry. */
export interface KeptAnswer {
  readonly status: number;
  /** The headers a client needs again (content-type, location, etag), by lower-case name. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** One key of a company's route scope, as stored. */
export interface IdempotencyEntry {
  /** The fingerprint of the first request; null while a streamed body is still being read. */
  readonly requestHash: string | null;
  /** Null while the first request runs. */
  readonly answer: KeptAnswer | null;
  /** ISO 8601: a running claim's lease, or the end of a kept answer's 24 hours. Past it, the key is free. */
  readonly expiresAt: string;
}

/** Answers of 5xx, 409 and 429 are not kept: the key is released and the client may retry. */
export function isKept(status: number): boolean {
  return status < 500 && status !== 409 && status !== 429;
}
