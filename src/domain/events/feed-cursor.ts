import { createHash } from 'node:crypto';
import type { FeedPosition } from './feed-position.js';

const VERSION = 1;
const COMPANY_TAG_BYTES = 8;
const CURSOR_BYTES = 1 + COMPANY_TAG_BYTES + 8 + 8;
const CURSOR_PATTERN = /^[A-Za-z0-9_-]{34}$/;

/** A short hash of the company: a cursor names whose feed it belongs to without showing it. */
function companyTag(companyId: string): Buffer {
  return createHash('sha256').update('wrs events feed\n').update(companyId).digest().subarray(0, COMPANY_TAG_BYTES);
}

/**
 * The opaque change-feed cursor: base64url of a version byte, the company's tag and the
 * position. It carries no secret: a position of one's own company is nothing to hide, and the
 * tag only makes another company's cursor (or a mix-up of companies) a clear 400.
 */
export function encodeFeedCursor(companyId: string, position: FeedPosition): string {
  const bytes = Buffer.alloc(CURSOR_BYTES);
  bytes[0] = VERSION;
  companyTag(companyId).copy(bytes, 1);
  bytes.writeBigUInt64BE(BigInt(position.xid), 1 + COMPANY_TAG_BYTES);
  bytes.writeBigUInt64BE(BigInt(position.seq), 1 + COMPANY_TAG_BYTES + 8);
  return bytes.toString('base64url');
}

export type FeedCursorProblem = 'malformed' | 'other-company';

/** The position a cursor of this company holds, or what is wrong with it. */
export function decodeFeedCursor(companyId: string, cursor: string): FeedPosition | FeedCursorProblem {
  if (!CURSOR_PATTERN.test(cursor)) return 'malformed';
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.length !== CURSOR_BYTES || bytes[0] !== VERSION) return 'malformed';
  // Decoding is lenient about the unused low bits of the last character: only the canonical form is accepted.
  if (bytes.toString('base64url') !== cursor) return 'malformed';
  if (!bytes.subarray(1, 1 + COMPANY_TAG_BYTES).equals(companyTag(companyId))) return 'other-company';
  const xid = bytes.readBigUInt64BE(1 + COMPANY_TAG_BYTES);
  const seq = bytes.readBigUInt64BE(1 + COMPANY_TAG_BYTES + 8);
  if (xid > BigInt(Number.MAX_SAFE_INTEGER) || seq > BigInt(Number.MAX_SAFE_INTEGER)) return 'malformed';
  return { xid: Number(xid), seq: Number(seq) };
}
