import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFairSemaphore, SlotWaitTimeoutError, type FairSemaphore, type SlotPermit } from '../../src/lib/fair-semaphore.js';

/** Lets granted waits run their continuations. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Starts a wait and records when (in which order) it was granted. */
function waitFor(semaphore: FairSemaphore, key: string, granted: string[], label = key): Promise<SlotPermit> {
  return semaphore.acquire(key).then((permit) => {
    granted.push(label);
    return permit;
  });
}

describe('fair semaphore', () => {
  it('never lets one key hold more than its share, even while the other slots are free', async () => {
    const semaphore = createFairSemaphore({ slots: 3, slotsPerKey: 1 });
    const granted: string[] = [];
    const first = await waitFor(semaphore, 'a', granted, 'a1');
    void waitFor(semaphore, 'a', granted, 'a2');
    void waitFor(semaphore, 'a', granted, 'a3');
    await settle();
    assert.deepEqual(granted, ['a1']);
    assert.deepEqual(semaphore.usage(), { held: 1, waiting: 2 });
    // Another key is served at once from the free slots.
    await waitFor(semaphore, 'b', granted);
    assert.deepEqual(granted, ['a1', 'b']);
    first.release();
    await settle();
    assert.deepEqual(granted, ['a1', 'b', 'a2']);
    assert.deepEqual(semaphore.usage('a'), { held: 1, waiting: 1 });
  });

  it('serves waiting keys round-robin, not in arrival order', async () => {
    const semaphore = createFairSemaphore({ slots: 1, slotsPerKey: 1 });
    const granted: string[] = [];
    const permits = new Map<string, SlotPermit>();
    const enqueue = (key: string, label: string) =>
      void semaphore.acquire(key).then((permit) => {
        granted.push(label);
        permits.set(label, permit);
      });
    let holding = await semaphore.acquire('x');
    enqueue('a', 'a1');
    enqueue('a', 'a2');
    enqueue('a', 'a3');
    enqueue('b', 'b1');
    enqueue('c', 'c1');
    enqueue('b', 'b2');
    for (let served = 1; served <= 6; served++) {
      holding.release();
      await settle();
      assert.equal(granted.length, served, 'one wait is granted per release');
      holding = permits.get(granted.at(-1)!)!;
    }
    assert.deepEqual(granted, ['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
    holding.release();
    assert.deepEqual(semaphore.usage(), { held: 0, waiting: 0 });
  });

  it('gives up a wait after its timeout, and the slot is not lost', async () => {
    const semaphore = createFairSemaphore({ slots: 1, slotsPerKey: 1 });
    const holder = await semaphore.acquire('a');
    const started = performance.now();
    await assert.rejects(semaphore.acquire('b', { timeoutMs: 50 }), (error: unknown) => {
      assert.ok(error instanceof SlotWaitTimeoutError);
      assert.equal(error.timeoutMs, 50);
      return true;
    });
    assert.ok(performance.now() - started >= 45);
    assert.deepEqual(semaphore.usage(), { held: 1, waiting: 0 });
    holder.release();
    const next = await semaphore.acquire('b', { timeoutMs: 50 });
    next.release();
    assert.deepEqual(semaphore.usage(), { held: 0, waiting: 0 });
  });

  it('stops waiting when aborted, and a granted slot does not care about a later abort', async () => {
    const semaphore = createFairSemaphore({ slots: 1, slotsPerKey: 1 });
    const holder = await semaphore.acquire('a');
    const controller = new AbortController();
    const waiting = semaphore.acquire('b', { signal: controller.signal });
    const granted: string[] = [];
    const behind = waitFor(semaphore, 'c', granted);
    controller.abort(new Error('client gone'));
    await assert.rejects(waiting, /client gone/);
    holder.release();
    // The aborted wait is skipped: the slot goes to the next key.
    const next = await behind;
    assert.deepEqual(granted, ['c']);
    next.release();

    await assert.rejects(semaphore.acquire('d', { signal: AbortSignal.abort(new Error('already')) }), /already/);

    const late = new AbortController();
    const permit = await semaphore.acquire('e', { signal: late.signal, timeoutMs: 20 });
    late.abort();
    await new Promise((resolve) => setTimeout(resolve, 40));
    assert.deepEqual(semaphore.usage('e'), { held: 1, waiting: 0 });
    permit.release();
  });

  it('releases a slot once however often release is called, and run() releases after the task', async () => {
    const semaphore = createFairSemaphore({ slots: 2, slotsPerKey: 2 });
    const permit = await semaphore.acquire('a');
    await semaphore.acquire('a');
    permit.release();
    permit.release();
    assert.deepEqual(semaphore.usage(), { held: 1, waiting: 0 });
    await assert.rejects(semaphore.run('b', async () => Promise.reject(new Error('task failed'))), /task failed/);
    assert.equal(await semaphore.run('b', async () => 'done'), 'done');
    assert.deepEqual(semaphore.usage('b'), { held: 0, waiting: 0 });
  });

  it('refuses a share larger than the whole', () => {
    assert.throws(() => createFairSemaphore({ slots: 2, slotsPerKey: 3 }), RangeError);
    assert.throws(() => createFairSemaphore({ slots: 0, slotsPerKey: 0 }), RangeError);
  });
});
