import { createHash } from 'node:crypto';
import type { FeedPosition } from './feed-position.js';

const VERSION = 1;
const COMPANY_TAG_BYTES = 8;
const CURSOR_BYTES = 1 + COMPANY_TAG_BYTES + 8 + 8;
const CURSOR_PATTERN = /^[A-Za-z0-9_-]{34}$/;

function companyTag(companyId: string): Buffer {
  return createHash('sha256').update('wrs events feed\n').update(companyId).digest().subarray(0, COMPANY_TAG_BYTES);
}

/**
 * The cursor of versions before sealing: base64url of a version byte, an unkeyed hash of the
 * company and the position in clear. Only read, for clients that held one across the upgrade;
 * since anyone can make one, the events service bounds its position (docs/events.md).
 */
export function decodeLegacyFeedCursor(companyId: string, cursor: string): FeedPosition | 'malformed' | 'other-company' {
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
