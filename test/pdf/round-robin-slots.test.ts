import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRoundRobinSlots, SlotRefusedError } from '../../src/lib/round-robin-slots.js';

// The render pool's scheduler on its own: who gets a freed thread, in what order, and who is refused.

const LONG = 60_000;

/** Acquires for each key in turn (in this order) and records the order in which slots are granted. */
function queueUp(slots: ReturnType<typeof createRoundRobinSlots>, keys: string[]) {
  const granted: string[] = [];
  const releases: (() => void)[] = [];
  const settled = keys.map((key) =>
    slots.acquire(key).then((release) => {
      granted.push(key);
      releases.push(release);
    }),
  );
  return { granted, releases, settled };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('round-robin slots', () => {
  it('gives freed slots to the companies in turn, not in arrival order', async () => {
    const slots = createRoundRobinSlots({ slots: 1, maxWaiting: 100, waitTimeoutMs: LONG });
    const { granted, releases } = queueUp(slots, ['a', 'a', 'a', 'a', 'b', 'c', 'b']);
    await tick();
    assert.deepEqual(granted, ['a'], 'the first caller takes the free slot');
    for (let served = 1; served < 7; served++) {
      releases[served - 1]!();
      await tick();
    }
    assert.deepEqual(granted, ['a', 'b', 'c', 'a', 'b', 'a', 'a']);
  });

  it('serves a newcomer before a company that already holds a slot and has more waiting', async () => {
    const slots = createRoundRobinSlots({ slots: 2, maxWaiting: 100, waitTimeoutMs: LONG });
    const { granted, releases, settled } = queueUp(slots, ['a', 'a', 'a', 'a', 'b']);
    await tick();
    assert.deepEqual(granted, ['a', 'a']);
    releases[0]!();
    await tick();
    assert.deepEqual(granted, ['a', 'a', 'b']);
    assert.equal(slots.held, 2);
    assert.equal(slots.waiting, 2);
    for (let next = 1; next < 5; next++) {
      releases[next]!();
      await tick();
    }
    await Promise.all(settled);
  });

  it('refuses a caller that waited past the wait timeout, and forgets it', async () => {
    const slots = createRoundRobinSlots({ slots: 1, maxWaiting: 100, waitTimeoutMs: 50 });
    const holder = await slots.acquire('a');
    await assert.rejects(slots.acquire('b'), (error: unknown) => {
      assert.ok(error instanceof SlotRefusedError);
      assert.equal(error.reason, 'wait_timeout');
      return true;
    });
    assert.equal(slots.waiting, 0);
    holder();
    assert.equal(slots.held, 0);
    const next = await slots.acquire('b');
    next();
  });

  it('when the waiting room is full, a company with fewer waiting takes the newest place of the busiest', async () => {
    const slots = createRoundRobinSlots({ slots: 1, maxWaiting: 4, waitTimeoutMs: LONG });
    const first = await slots.acquire('a');
    const outcomes: string[] = [];
    const track = (label: string, key: string) =>
      slots.acquire(key).then(
        (release) => {
          outcomes.push(`${label} granted`);
          release();
        },
        (error: SlotRefusedError) => outcomes.push(`${label} ${error.reason}`),
      );
    const waits = ['a1', 'a2', 'a3', 'a4'].map((label) => track(label, 'a'));
    await tick();
    assert.equal(slots.waiting, 4);

    const aFifth = track('a5', 'a');
    const bFirst = track('b1', 'b');
    await tick();
    assert.deepEqual(outcomes, ['a5 queue_full', 'a4 queue_full'], 'a is refused; b takes the newest place of a');
    assert.equal(slots.waiting, 4);

    first();
    await Promise.all([...waits, aFifth, bFirst]);
    assert.deepEqual(outcomes.slice(2), ['b1 granted', 'a1 granted', 'a2 granted', 'a3 granted'], 'b, not yet served, goes first');
  });

  it('refuses a company whose queue is no longer than the others when the waiting room is full', async () => {
    const slots = createRoundRobinSlots({ slots: 1, maxWaiting: 2, waitTimeoutMs: LONG });
    const holder = await slots.acquire('a');
    const waits = [slots.acquire('a'), slots.acquire('b')];
    await assert.rejects(slots.acquire('c'), (error: unknown) => error instanceof SlotRefusedError && error.reason === 'queue_full');
    await assert.rejects(slots.acquire('b'), (error: unknown) => error instanceof SlotRefusedError && error.reason === 'queue_full');
    holder();
    (await waits[1]!)();
    (await waits[0]!)();
    assert.equal(slots.held, 0);
  });
});
