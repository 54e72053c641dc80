import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createShareTimers } from '../../src/providers/pdf/share-timers.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('share timers', () => {
  it("runs one job's clock at full speed", async () => {
    const expired: string[] = [];
    const timers = createShareTimers<string>((key) => expired.push(key));
    timers.start('a', 100);
    await sleep(60);
    assert.deepEqual(expired, []);
    await sleep(80);
    assert.deepEqual(expired, ['a']);
    timers.stopAll();
  });

  it('runs each clock at half speed while two jobs share the thread, and at full speed again once one stops', async () => {
    const expired: string[] = [];
    const timers = createShareTimers<string>((key) => expired.push(key));
    timers.start('a', 100);
    timers.start('b', 1000);
    await sleep(150);
    assert.deepEqual(expired, [], 'a has used about 75 ms of its 100');
    timers.stop('b');
    await sleep(60);
    assert.deepEqual(expired, ['a']);
    timers.stopAll();
  });

  it('does not charge a paused clock, and goes on from what it had used once resumed', async () => {
    const expired: string[] = [];
    const timers = createShareTimers<string>((key) => expired.push(key));
    timers.start('a', 100);
    await sleep(50);
    timers.pause('a');
    await sleep(150);
    assert.deepEqual(expired, [], 'paused after about 50 ms of its 100');
    timers.resume('a');
    await sleep(20);
    assert.deepEqual(expired, []);
    await sleep(80);
    assert.deepEqual(expired, ['a']);
    timers.stopAll();
  });

  it('never fires a stopped clock', async () => {
    const expired: string[] = [];
    const timers = createShareTimers<string>((key) => expired.push(key));
    timers.start('a', 30);
    timers.stop('a');
    await sleep(80);
    assert.deepEqual(expired, []);
  });
});
