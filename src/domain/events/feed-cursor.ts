import { createCipheriv, createDecipheriv, createHmac, hkdfSync, timingSafeEqual, type Cipher } from 'node:crypto';
import { decodeLegacyFeedCursor } from './feed-cursor-v1.js';
import type { FeedPosition } from './feed-position.js';

/** One AES block holds the position; a check of 8 bytes follows it. */
const BLOCK_BYTES = 16;
const CHECK_BYTES = 8;
const CURSOR_BYTES = BLOCK_BYTES + CHECK_BYTES;
const CURSOR_PATTERN = /^[A-Za-z0-9_-]{32}$/;
const TWO_TO_32 = 2 ** 32;
/** Companies whose masks are remembered; past it the memory starts again. */
const REMEMBERED_COMPANIES = 10_000;

export type DecodedFeedCursor =
  | { readonly position: FeedPosition }
  /** A cursor of the form before sealing, of this company: its position is to be bounded (events-service.ts). */
  | { readonly legacy: FeedPosition }
  | { readonly problem: 'malformed' | 'not-this-company' | 'other-company' };

export interface FeedCursors {
  encode(companyId: string, position: FeedPosition): string;
  /** The cursors of many positions at once (a page's events): one pass of the cipher over all of them. */
  encodeAll(companyId: string, positions: readonly FeedPosition[]): string[];
  decode(companyId: string, cursor: string): DecodedFeedCursor;
}

/**
 * Change-feed cursors sealed with WRS_ENCRYPTION_KEY: a position is global on PostgreSQL (the
 * writing transaction's id and a shared sequence), so shown in clear it would let a company
 * count the writes of others. A cursor is base64url of one AES-256 block over the position
 * masked by the company's mask, then 8 bytes of a second AES key over that block masked by the
 * company's second mask: the same position gives the same cursor (so `next_cursor` equals `after`
 * when nothing is new), two companies' cursors share nothing, and a cursor of another company,
 * altered or made up fails the check. Every replica with the same key reads every cursor.
 */
export function createFeedCursors(encryptionKey: Buffer): FeedCursors {
  const keys = Buffer.from(hkdfSync('sha256', encryptionKey, Buffer.alloc(0), 'wrs change-feed cursor v2', 96));
  // ECB over single blocks of one long-lived cipher: each update enciphers whole blocks, and no
  // cipher is set up per cursor.
  const ecb = (key: Buffer): Cipher => createCipheriv('aes-256-ecb', key, null).setAutoPadding(false);
  const seal = ecb(keys.subarray(0, 32));
  const unseal = createDecipheriv('aes-256-ecb', keys.subarray(0, 32), null).setAutoPadding(false);
  const check = ecb(keys.subarray(32, 64));
  const maskKey = keys.subarray(64, 96);
  const masks = new Map<string, Buffer>();

  /** 32 bytes: the position's mask, then the check's. */
  const masksOf = (companyId: string): Buffer => {
    let mask = masks.get(companyId);
    if (mask === undefined) {
      if (masks.size >= REMEMBERED_COMPANIES) masks.clear();
      mask = createHmac('sha256', maskKey).update(companyId).digest();
      masks.set(companyId, mask);
    }
    return mask;
  };

  const checksOf = (sealed: Buffer, mask: Buffer): Buffer => {
    const masked = Buffer.allocUnsafe(sealed.length);
    for (let at = 0; at < sealed.length; at += BLOCK_BYTES) xorBlock(sealed, at, mask, BLOCK_BYTES, masked, at);
    return check.update(masked);
  };

  const encodeAll = (companyId: string, positions: readonly FeedPosition[]): string[] => {
    const mask = masksOf(companyId);
    const plain = Buffer.allocUnsafe(positions.length * BLOCK_BYTES);
    positions.forEach((position, i) => {
      writePosition(plain, i * BLOCK_BYTES, position);
      xorBlock(plain, i * BLOCK_BYTES, mask, 0, plain, i * BLOCK_BYTES);
    });
    const sealed = seal.update(plain);
    const checks = checksOf(sealed, mask);
    const cursor = Buffer.allocUnsafe(CURSOR_BYTES);
    return positions.map((_, i) => {
      sealed.copy(cursor, 0, i * BLOCK_BYTES, (i + 1) * BLOCK_BYTES);
      checks.copy(cursor, BLOCK_BYTES, i * BLOCK_BYTES, i * BLOCK_BYTES + CHECK_BYTES);
      return cursor.toString('base64url');
    });
  };

  return {
    encodeAll,
    encode: (companyId, position) => encodeAll(companyId, [position])[0]!,
    decode(companyId, cursor) {
      if (!CURSOR_PATTERN.test(cursor)) {
        const legacy = decodeLegacyFeedCursor(companyId, cursor);
        return typeof legacy === 'string' ? { problem: legacy } : { legacy };
      }
      const bytes = Buffer.from(cursor, 'base64url');
      const sealed = bytes.subarray(0, BLOCK_BYTES);
      const mask = masksOf(companyId);
      if (!timingSafeEqual(checksOf(sealed, mask).subarray(0, CHECK_BYTES), bytes.subarray(BLOCK_BYTES))) {
        return { problem: 'not-this-company' };
      }
      const plain = unseal.update(sealed);
      xorBlock(plain, 0, mask, 0, plain, 0);
      const position = readPosition(plain);
      return position === undefined ? { problem: 'malformed' } : { position };
    },
  };
}

/** The position as two big-endian 64-bit numbers (each at most 2^53 - 1). */
function writePosition(block: Buffer, at: number, { xid, seq }: FeedPosition): void {
  block.writeUInt32BE(Math.floor(xid / TWO_TO_32), at);
  block.writeUInt32BE(xid % TWO_TO_32, at + 4);
  block.writeUInt32BE(Math.floor(seq / TWO_TO_32), at + 8);
  block.writeUInt32BE(seq % TWO_TO_32, at + 12);
}

function readPosition(block: Buffer): FeedPosition | undefined {
  const xidHigh = block.readUInt32BE(0);
  const seqHigh = block.readUInt32BE(8);
  if (xidHigh >= 2 ** 21 || seqHigh >= 2 ** 21) return undefined;
  return { xid: xidHigh * TWO_TO_32 + block.readUInt32BE(4), seq: seqHigh * TWO_TO_32 + block.readUInt32BE(12) };
}

function xorBlock(source: Buffer, at: number, mask: Buffer, maskAt: number, target: Buffer, targetAt: number): void {
  for (let i = 0; i < BLOCK_BYTES; i += 4) {
    target.writeInt32BE(source.readInt32BE(at + i) ^ mask.readInt32BE(maskAt + i), targetAt + i);
  }
}
