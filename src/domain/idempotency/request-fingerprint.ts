import { createHash } from 'node:crypto';
import { canonicalJson } from '../../lib/canonical-json.js';

/**
 * What makes two requests "the same" for one Idempotency-Key: the path parameters and the body
 * as JSON values (formatting and key order do not count), hashed. A streamed body (NDJSON or a
 * JSON array) is added item by item, so that it is never held whole.
 */
export interface RequestFingerprint {
  /** Adds the next part, in request order. */
  add(kind: string, value: unknown): void;
  digest(): string;
}

export function createRequestFingerprint(params: unknown): RequestFingerprint {
  const hash = createHash('sha256');
  const add = (kind: string, value: unknown) => {
    hash.update(kind);
    hash.update('\0');
    hash.update(canonicalJson(value));
    hash.update('\n');
  };
  add('params', params);
  return { add, digest: () => hash.digest('hex') };
}

/** The fingerprint of a request whose body has already been read. */
export function fingerprintOf(params: unknown, body: unknown): string {
  const fingerprint = createRequestFingerprint(params);
  fingerprint.add('body', body);
  return fingerprint.digest();
}
