import { randomFillSync } from 'node:crypto';

let lastMillis = 0;
let sequence = 0;

// Random bytes are drawn from the OS in blocks: one call per 4 KiB instead of one per ID.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomBytesFromPool(count: number): Buffer {
  if (poolOffset + count > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + count));
  poolOffset += count;
  return bytes;
}

/**
 * RFC 9562 UUIDv7: 48-bit Unix milliseconds, then random bits. A 12-bit counter in rand_a keeps
 * IDs made within the same millisecond in creation order, so they sort like their timestamps.
 */
export function uuidv7(now: number = Date.now()): string {
  const bytes = randomBytesFromPool(16);
  if (now === lastMillis) {
    sequence = (sequence + 1) & 0xfff;
  } else {
    lastMillis = now;
    sequence = bytes.readUInt16BE(6) & 0x7ff;
  }
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
