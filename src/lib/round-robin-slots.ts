/** Why a caller did not get a slot: the queue was full, or it waited longer than it may. */
export class SlotRefusedError extends Error {
  constructor(
    readonly reason: 'queue_full' | 'wait_timeout',
    message: string,
  ) {
    super(message);
    this.name = 'SlotRefusedError';
  }
}

export interface RoundRobinSlotsOptions {
  /** Slots held at once. */
  slots: number;
  /** Callers that may wait, all keys together. */
  maxWaiting: number;
  /** Longest wait for a slot. */
  waitTimeoutMs: number;
}

/**
 * A counting semaphore shared fairly between keys (companies): each key waits in its own queue,
 * and a freed slot goes to the waiting key served least recently, so a key with many callers
 * waiting never holds back a key with one. When the waiting room is full, a newcomer takes the
 * place of the newest caller of the key with the longest queue, if that queue is longer than
 * its own by more than one; otherwise the newcomer is refused.
 */
export interface RoundRobinSlots {
  /** Resolves with the function that gives the slot back (call it once); rejects with SlotRefusedError. */
  acquire(key: string): Promise<() => void>;
  readonly held: number;
  readonly waiting: number;
}

interface Waiter {
  grant(release: () => void): void;
  refuse(error: SlotRefusedError): void;
  timer: NodeJS.Timeout;
}

export function createRoundRobinSlots(options: RoundRobinSlotsOptions): RoundRobinSlots {
  // Keys with callers waiting, in the order they started waiting.
  const queues = new Map<string, Waiter[]>();
  // When each key with a slot or a caller waiting was last given a slot; forgotten when it has neither.
  const lastServed = new Map<string, number>();
  const heldBy = new Map<string, number>();
  let held = 0;
  let waiting = 0;
  let grants = 0;

  const give = (key: string): (() => void) => {
    held += 1;
    grants += 1;
    lastServed.set(key, grants);
    heldBy.set(key, (heldBy.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      held -= 1;
      const left = (heldBy.get(key) ?? 1) - 1;
      if (left > 0) heldBy.set(key, left);
      else heldBy.delete(key);
      forgetIfIdle(key);
      serveNext();
    };
  };

  const forgetIfIdle = (key: string): void => {
    if (!heldBy.has(key) && !queues.has(key)) lastServed.delete(key);
  };

  const take = (key: string, queue: Waiter[], which: 'first' | 'last'): Waiter => {
    const waiter = (which === 'first' ? queue.shift() : queue.pop())!;
    waiting -= 1;
    clearTimeout(waiter.timer);
    if (queue.length === 0) queues.delete(key);
    return waiter;
  };

  const serveNext = (): void => {
    while (held < options.slots && queues.size > 0) {
      let chosen: string | undefined;
      for (const key of queues.keys()) {
        if (chosen === undefined || (lastServed.get(key) ?? 0) < (lastServed.get(chosen) ?? 0)) chosen = key;
      }
      const waiter = take(chosen!, queues.get(chosen!)!, 'first');
      waiter.grant(give(chosen!));
    }
  };

  const makeRoom = (key: string): boolean => {
    if (waiting < options.maxWaiting) return true;
    let longest: string | undefined;
    for (const [other, queue] of queues) {
      if (longest === undefined || queue.length > queues.get(longest)!.length) longest = other;
    }
    const own = queues.get(key)?.length ?? 0;
    if (longest === undefined || longest === key || queues.get(longest)!.length <= own + 1) return false;
    const evicted = take(longest, queues.get(longest)!, 'last');
    forgetIfIdle(longest);
    evicted.refuse(new SlotRefusedError('queue_full', 'too many waiting'));
    return true;
  };

  return {
    get held() {
      return held;
    },
    get waiting() {
      return waiting;
    },

    acquire(key) {
      if (held < options.slots && queues.size === 0) return Promise.resolve(give(key));
      if (!makeRoom(key)) return Promise.reject(new SlotRefusedError('queue_full', 'too many waiting'));
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          grant: resolve,
          refuse: reject,
          timer: setTimeout(() => {
            const queue = queues.get(key);
            const index = queue?.indexOf(waiter) ?? -1;
            if (!queue || index < 0) return;
            queue.splice(index, 1);
            waiting -= 1;
            if (queue.length === 0) queues.delete(key);
            forgetIfIdle(key);
            reject(new SlotRefusedError('wait_timeout', `waited ${options.waitTimeoutMs} ms`));
          }, options.waitTimeoutMs),
        };
        const queue = queues.get(key);
        if (queue) queue.push(waiter);
        else queues.set(key, [waiter]);
        if (!lastServed.has(key)) lastServed.set(key, 0);
        waiting += 1;
      });
    },
  };
}
