import { randomFillSync } from 'node:crypto';

let lastMillis = 0;
let sequence = 0;

// Random bytes are drawn from the OS in blocks: one call per 4 KiB instead of one per ID.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

/** Where `count` fresh random bytes start in the pool. */
function randomBytesAt(count: number): number {
  if (poolOffset + count > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const at = poolOffset;
  poolOffset += count;
  return at;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * RFC 9562 UUIDv7: 48-bit Unix milliseconds, then random bits. A 12-bit counter in rand_a keeps
 * IDs made within the same millisecond in creation order, so they sort like their timestamps.
 * Every request gets one (its request ID), so the text is built straight from the bytes.
 */
export function uuidv7(now: number = Date.now()): string {
  // Two bytes that seed the counter in a new millisecond, then the 62 random bits of rand_b.
  const at = randomBytesAt(10);
  if (now === lastMillis) {
    sequence = (sequence + 1) & 0xfff;
  } else {
    lastMillis = now;
    sequence = ((pool[at]! << 8) | pool[at + 1]!) & 0x7ff;
  }
  const high = Math.floor(now / 0x10000);
  const low = now % 0x10000;
  return (
    HEX[(high >>> 24) & 0xff]! +
    HEX[(high >>> 16) & 0xff]! +
    HEX[(high >>> 8) & 0xff]! +
    HEX[high & 0xff]! +
    '-' +
    HEX[low >>> 8]! +
    HEX[low & 0xff]! +
    '-' +
    HEX[0x70 | (sequence >> 8)]! +
    HEX[sequence & 0xff]! +
    '-' +
    HEX[0x80 | (pool[at + 2]! & 0x3f)]! +
    HEX[pool[at + 3]!]! +
    '-' +
    HEX[pool[at + 4]!]! +
    HEX[pool[at + 5]!]! +
    HEX[pool[at + 6]!]! +
    HEX[pool[at + 7]!]! +
    HEX[pool[at + 8]!]! +
    HEX[pool[at + 9]!]!
  );
}
