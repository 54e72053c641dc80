import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFairSemaphore, SlotRefusedError, SlotWaitTimeoutError, type FairSemaphore, type SlotPermit } from '../../src/lib/fair-semaphore.js';

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
    await assert.rejects(
      semaphore.run('b', async () => Promise.reject(new Error('task failed'))),
      /task failed/,
    );
    assert.equal(await semaphore.run('b', async () => 'done'), 'done');
    assert.deepEqual(semaphore.usage('b'), { held: 0, waiting: 0 });
  });

  it('refuses a share larger than the whole', () => {
    assert.throws(() => createFairSemaphore({ slots: 2, slotsPerKey: 3 }), RangeError);
    assert.throws(() => createFairSemaphore({ slots: 0, slotsPerKey: 0 }), RangeError);
  });
});

// As the PDF render pool uses it: no cap per key, a bounded waiting room, a wait timeout.
describe('fair semaphore: least recently served first, bounded waiting room', () => {
  const LONG = 60_000;

  /** Acquires for each key in turn (in this order) and records the order in which slots are granted. */
  function queueUp(slots: FairSemaphore, keys: string[]) {
    const granted: string[] = [];
    const releases: (() => void)[] = [];
    const settled = keys.map((key) =>
      slots.acquire(key, { timeoutMs: LONG }).then((permit) => {
        granted.push(key);
        releases.push(() => permit.release());
      }),
    );
    return { granted, releases, settled };
  }

  it('gives freed slots to the companies in turn, not in arrival order', async () => {
    const slots = createFairSemaphore({ slots: 1, maxWaiting: 100 });
    const { granted, releases } = queueUp(slots, ['a', 'a', 'a', 'a', 'b', 'c', 'b']);
    await settle();
    assert.deepEqual(granted, ['a'], 'the first caller takes the free slot');
    for (let served = 1; served < 7; served++) {
      releases[served - 1]!();
      await settle();
    }
    assert.deepEqual(granted, ['a', 'b', 'c', 'a', 'b', 'a', 'a']);
  });

  it('serves a newcomer before a company that already holds a slot and has more waiting', async () => {
    const slots = createFairSemaphore({ slots: 2, maxWaiting: 100 });
    const { granted, releases, settled } = queueUp(slots, ['a', 'a', 'a', 'a', 'b']);
    await settle();
    assert.deepEqual(granted, ['a', 'a']);
    releases[0]!();
    await settle();
    assert.deepEqual(granted, ['a', 'a', 'b']);
    assert.equal(slots.usage().held, 2);
    assert.equal(slots.usage().waiting, 2);
    for (let next = 1; next < 5; next++) {
      releases[next]!();
      await settle();
    }
    await Promise.all(settled);
  });

  it('refuses a caller that waited past the wait timeout, and forgets it', async () => {
    const slots = createFairSemaphore({ slots: 1, maxWaiting: 100 });
    const holder = await slots.acquire('a', { timeoutMs: 50 });
    await assert.rejects(slots.acquire('b', { timeoutMs: 50 }), (error: unknown) => {
      assert.ok(error instanceof SlotRefusedError);
      assert.equal(error.reason, 'wait_timeout');
      return true;
    });
    assert.equal(slots.usage().waiting, 0);
    holder.release();
    assert.equal(slots.usage().held, 0);
    const next = await slots.acquire('b', { timeoutMs: 50 });
    next.release();
  });

  it('when the waiting room is full, a company with fewer waiting takes the newest place of the busiest', async () => {
    const slots = createFairSemaphore({ slots: 1, maxWaiting: 4 });
    const first = await slots.acquire('a', { timeoutMs: LONG });
    const outcomes: string[] = [];
    const track = (label: string, key: string) =>
      slots.acquire(key, { timeoutMs: LONG }).then(
        (permit) => {
          outcomes.push(`${label} granted`);
          permit.release();
        },
        (error: SlotRefusedError) => outcomes.push(`${label} ${error.reason}`),
      );
    const waits = ['a1', 'a2', 'a3', 'a4'].map((label) => track(label, 'a'));
    await settle();
    assert.equal(slots.usage().waiting, 4);
    assert.equal(slots.admits('a'), false, 'a, the busiest, would be refused');
    assert.equal(slots.admits('b'), true, 'b would take a place of a');

    const aFifth = track('a5', 'a');
    const bFirst = track('b1', 'b');
    await settle();
    assert.deepEqual(outcomes, ['a5 queue_full', 'a4 queue_full'], 'a is refused; b takes the newest place of a');
    assert.equal(slots.usage().waiting, 4);

    first.release();
    await Promise.all([...waits, aFifth, bFirst]);
    assert.deepEqual(outcomes.slice(2), ['b1 granted', 'a1 granted', 'a2 granted', 'a3 granted'], 'b, not yet served, goes first');
  });

  it('refuses a company whose queue is no longer than the others when the waiting room is full', async () => {
    const slots = createFairSemaphore({ slots: 1, maxWaiting: 2 });
    const acquire = (key: string) => slots.acquire(key, { timeoutMs: LONG });
    const holder = await acquire('a');
    const waits = [acquire('a'), acquire('b')];
    assert.deepEqual(
      ['a', 'b', 'c'].map((key) => slots.admits(key)),
      [false, false, false],
    );
    await assert.rejects(acquire('c'), (error: unknown) => error instanceof SlotRefusedError && error.reason === 'queue_full');
    await assert.rejects(acquire('b'), (error: unknown) => error instanceof SlotRefusedError && error.reason === 'queue_full');
    holder.release();
    (await waits[1]!).release();
    (await waits[0]!).release();
    assert.equal(slots.usage().held, 0);
  });

  it('admits a key while a slot of its share is free, or while the waiting room has room', async () => {
    const slots = createFairSemaphore({ slots: 2, slotsPerKey: 1, maxWaiting: 1 });
    assert.equal(slots.admits('a'), true, 'a free slot');
    const held = await slots.acquire('a');
    assert.equal(slots.admits('b'), true, "a free slot within b's share");
    assert.equal(slots.admits('a'), true, 'a at its share, but the waiting room has room');
    const waiting = slots.acquire('a', { timeoutMs: LONG });
    assert.equal(slots.admits('a'), false, 'a at its share and the room full of its own');
    assert.equal(slots.admits('b'), true, 'b still has a free slot');
    held.release();
    (await waiting).release();
  });
});
