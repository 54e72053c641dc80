import { randomUUID } from 'node:crypto';
import type { Clock } from '../../lib/clock.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { IdempotencyRepository, IdempotencyTarget } from './idempotency-repository.port.js';
import type { KeptAnswer } from './kept-answer.js';
import { openAnswer, sealAnswer } from './sealed-answer.js';

/** A kept answer is replayed for 24 hours. */
export const RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * A running claim holds the key this long unless renewed; the holder renews it while it runs,
 * so only the claim of a process that died runs out, and the key is free again after it.
 */
export const LEASE_MS = 2 * 60 * 1000;
/** How often a running request renews its lease. */
export const LEASE_RENEWAL_MS = 30 * 1000;
/** Expired keys are deleted this often by each serving process. */
export const CLEANUP_INTERVAL_MS = 10 * 60 * 1000;
/** The shortest wait a 409 asks for (a lease about to run out still rounds up to this). */
export const MIN_RETRY_AFTER_S = 1;

/**
 * What a 409 tells the client to wait: the time left on the holder's lease, rounded up. A holder
 * that still runs may finish sooner; one that died frees the key exactly then.
 */
export function retryAfterSecondsOf(expiresAt: string, now: string): number {
  return Math.max(MIN_RETRY_AFTER_S, Math.ceil((Date.parse(expiresAt) - Date.parse(now)) / 1000));
}

/** The request's fingerprint, or a way to read it (a streamed body is read only when a retry must be compared). */
export type FingerprintSource = string | (() => Promise<string>);

/** A request that holds its key: it runs, then keeps its answer or releases the key. Settles once. */
export interface HeldKey {
  /** Keeps the answer for 24 hours under the request's fingerprint. */
  keep(answer: KeptAnswer, requestHash: string): Promise<void>;
  release(): Promise<void>;
  /** Stops renewing the lease (the request lost its client): unless it still keeps or releases, the lease runs out. */
  abandon(): void;
}

export type Admission =
  | { readonly kind: 'run'; readonly held: HeldKey }
  | { readonly kind: 'replay'; readonly answer: KeptAnswer }
  | { readonly kind: 'reused' }
  | { readonly kind: 'in_use'; readonly retryAfterSeconds: number };

export interface IdempotencyService {
  /** Whether the request runs (and holds the key), replays a kept answer, or is refused. */
  admit(target: IdempotencyTarget, fingerprint: FingerprintSource): Promise<Admission>;
  deleteExpired(): Promise<number>;
  /** Deletes expired keys every interval (an unref'd timer); answers how to stop it. */
  startCleanup(onError: (error: unknown) => void): () => void;
}

export interface IdempotencyServiceDeps {
  readonly repository: IdempotencyRepository;
  readonly clock: Clock;
  /** Seals each kept answer's body (WRS_ENCRYPTION_KEY), which may hold a secret. */
  readonly secretBox: SecretBox;
  readonly leaseMs?: number;
  readonly leaseRenewalMs?: number;
  readonly cleanupIntervalMs?: number;
}

/** How many times admission re-reads a key that changed under it (released, expired) before it answers 409. */
const ADMIT_ATTEMPTS = 3;

export function createIdempotencyService({
  repository,
  clock,
  secretBox,
  leaseMs = LEASE_MS,
  leaseRenewalMs = LEASE_RENEWAL_MS,
  cleanupIntervalMs = CLEANUP_INTERVAL_MS,
}: IdempotencyServiceDeps): IdempotencyService {
  const after = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();

  function hold(target: IdempotencyTarget, token: string): HeldKey {
    let settled = false;
    const renewal = setInterval(() => {
      repository.renew(target, token, after(leaseMs)).catch(() => undefined);
    }, leaseRenewalMs);
    renewal.unref();
    const settle = () => {
      clearInterval(renewal);
      if (settled) return false;
      settled = true;
      return true;
    };
    return {
      async keep(answer, requestHash) {
        if (settle()) await repository.complete(target, token, requestHash, sealAnswer(secretBox, target, answer), after(RETENTION_MS));
      },
      async release() {
        if (settle()) await repository.release(target, token);
      },
      abandon() {
        clearInterval(renewal);
      },
    };
  }

  return {
    async admit(target, fingerprint) {
      const knownHash = typeof fingerprint === 'string' ? fingerprint : null;
      for (let attempt = 0; attempt < ADMIT_ATTEMPTS; attempt++) {
        const claim = { token: randomUUID(), requestHash: knownHash, expiresAt: after(leaseMs) };
        if (await repository.claim(target, claim)) return { kind: 'run', held: hold(target, claim.token) };
        const entry = await repository.find(target);
        if (!entry) continue;
        const now = clock.now().toISOString();
        if (entry.expiresAt <= now) {
          if (await repository.takeOver(target, claim, now)) return { kind: 'run', held: hold(target, claim.token) };
          continue;
        }
        if (entry.answer === null || entry.requestHash === null) return { kind: 'in_use', retryAfterSeconds: retryAfterSecondsOf(entry.expiresAt, now) };
        const hash = typeof fingerprint === 'string' ? fingerprint : await fingerprint();
        return hash === entry.requestHash ? { kind: 'replay', answer: openAnswer(secretBox, target, entry.answer) } : { kind: 'reused' };
      }
      return { kind: 'in_use', retryAfterSeconds: MIN_RETRY_AFTER_S };
    },

    deleteExpired() {
      return repository.deleteExpired(clock.now().toISOString());
    },

    startCleanup(onError) {
      const timer = setInterval(() => {
        repository.deleteExpired(clock.now().toISOString()).catch(onError);
      }, cleanupIntervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
