import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { uuidv7 } from '../../src/lib/ids.js';

describe('uuidv7', () => {
  it('has the RFC 9562 version and variant bits and the timestamp in front', () => {
    const now = Date.parse('2026-11-21T15:04:05.123Z');
    const id = uuidv7(now);
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(parseInt(id.replace(/-/g, '').slice(0, 12), 16), now);
    for (const millis of [0, 1, 0xffff, 0x10000, 2 ** 48 - 1]) assert.equal(parseInt(uuidv7(millis).replace(/-/g, '').slice(0, 12), 16), millis);
  });

  it('sorts in creation order within one millisecond and never repeats', () => {
    const now = Date.now();
    const ids = Array.from({ length: 2000 }, () => uuidv7(now));
    assert.deepEqual([...ids].sort(), ids);
    const many = Array.from({ length: 20_000 }, () => uuidv7());
    assert.equal(new Set(many).size, many.length);
  });
});
