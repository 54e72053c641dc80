/**
 * A semaphore shared by many keys (companies) where no key can shut the others out: each key
 * waits in its own queue, a freed slot goes to the waiting key that was given a slot least
 * recently (so a key with many waiters gets one slot, then every other waiting key gets its
 * turn), a key may be capped below the whole, the waiting room may be bounded, and a wait is
 * bounded by a timeout and an AbortSignal.
 */
export interface FairSemaphoreOptions {
  /** Slots in all: the global bound on the work running at once. */
  readonly slots: number;
  /** Slots one key may hold at once, even while the others are free. Default: all of them. */
  readonly slotsPerKey?: number;
  /**
   * Waits pending at once, all keys together. When the room is full, a newcomer takes the
   * place of the newest waiter of the key with the longest queue if that queue is longer than
   * the newcomer's own by more than one (the evicted wait rejects with queue_full); otherwise
   * the newcomer is refused. Default: unbounded.
   */
  readonly maxWaiting?: number;
}

export interface AcquireOptions {
  /** Longest wait for a slot; past it the wait rejects with SlotWaitTimeoutError. */
  readonly timeoutMs?: number;
  /** Aborting stops the wait (it rejects with the signal's reason); a slot already held is kept. */
  readonly signal?: AbortSignal;
}

/** A held slot. `release()` gives it back; calling it again does nothing. */
export interface SlotPermit {
  release(): void;
}

export interface FairSemaphore {
  acquire(key: string, options?: AcquireOptions): Promise<SlotPermit>;
  /** Runs `task` holding one of the key's slots, released when the task settles. */
  run<T>(key: string, task: () => Promise<T>, options?: AcquireOptions): Promise<T>;
  /** Slots held and waits pending, in all and for one key. */
  usage(key?: string): { held: number; waiting: number };
  /**
   * Whether an acquire of `key` now would be given a slot or a place to wait, rather than
   * refused at once: lets a caller refuse before doing the work that would precede it.
   */
  admits(key: string): boolean;
}

/** Why a wait got no slot: the waiting room was full, or it waited longer than it may. */
export class SlotRefusedError extends Error {
  constructor(
    readonly reason: 'queue_full' | 'wait_timeout',
    message: string,
  ) {
    super(message);
    this.name = 'SlotRefusedError';
  }
}

export class SlotWaitTimeoutError extends SlotRefusedError {
  constructor(readonly timeoutMs: number) {
    super('wait_timeout', `no slot became free within ${timeoutMs} ms`);
    this.name = 'SlotWaitTimeoutError';
  }
}

interface Waiter {
  grant(): void;
  refuse(error: SlotRefusedError): void;
}

interface KeyState {
  held: number;
  readonly waiters: Waiter[];
  /** When the key was last given a slot (a count of grants); 0 until its first since it was last idle. */
  lastServed: number;
}

export function createFairSemaphore(options: FairSemaphoreOptions): FairSemaphore {
  const { slots, slotsPerKey = slots, maxWaiting = Infinity } = options;
  if (!Number.isInteger(slots) || slots < 1) throw new RangeError('slots must be a positive integer');
  if (!Number.isInteger(slotsPerKey) || slotsPerKey < 1 || slotsPerKey > slots) {
    throw new RangeError('slotsPerKey must be an integer from 1 to slots');
  }
  if (!(maxWaiting >= 0)) throw new RangeError('maxWaiting must not be negative');
  const keys = new Map<string, KeyState>();
  // Keys with waiters, in the order they started waiting: among keys never served, the first goes first.
  const waitingKeys = new Set<string>();
  let held = 0;
  let waiting = 0;
  let grants = 0;

  const stateOf = (key: string): KeyState => {
    let state = keys.get(key);
    if (!state) {
      state = { held: 0, waiters: [], lastServed: 0 };
      keys.set(key, state);
    }
    return state;
  };

  const forgetIfIdle = (key: string, state: KeyState): void => {
    if (state.held === 0 && state.waiters.length === 0) keys.delete(key);
  };

  const take = (key: string, state: KeyState): SlotPermit => {
    held += 1;
    state.held += 1;
    grants += 1;
    state.lastServed = grants;
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        held -= 1;
        state.held -= 1;
        forgetIfIdle(key, state);
        serveWaiting();
      },
    };
  };

  const removeWaiter = (key: string, state: KeyState, waiter: Waiter): boolean => {
    const index = state.waiters.indexOf(waiter);
    if (index < 0) return false;
    state.waiters.splice(index, 1);
    waiting -= 1;
    if (state.waiters.length === 0) waitingKeys.delete(key);
    return true;
  };

  function serveWaiting(): void {
    while (held < slots) {
      let next: [string, KeyState] | undefined;
      for (const key of waitingKeys) {
        const state = keys.get(key)!;
        if (state.held < slotsPerKey && (!next || state.lastServed < next[1].lastServed)) next = [key, state];
      }
      if (!next) return;
      const [key, state] = next;
      const waiter = state.waiters[0]!;
      removeWaiter(key, state, waiter);
      waiter.grant();
    }
  }

  /**
   * Room for a newcomer of a key with `queued` waiters: 'free' when the waiting room has some,
   * the key whose newest waiter it would take the place of (the longest queue, when longer than
   * the newcomer's own by more than one), or undefined when it is refused.
   */
  const roomFor = (key: string, queued: number): 'free' | [string, KeyState] | undefined => {
    if (waiting < maxWaiting) return 'free';
    let longest: [string, KeyState] | undefined;
    for (const other of waitingKeys) {
      const otherState = keys.get(other)!;
      if (!longest || otherState.waiters.length > longest[1].waiters.length) longest = [other, otherState];
    }
    if (!longest || longest[0] === key || longest[1].waiters.length <= queued + 1) return undefined;
    return longest;
  };

  /** Whether the newcomer of `key` may wait, evicting the busiest key's newest waiter if need be. */
  const makeRoom = (key: string, state: KeyState): boolean => {
    const room = roomFor(key, state.waiters.length);
    if (room === 'free') return true;
    if (!room) return false;
    const [longestKey, longest] = room;
    const evicted = longest.waiters.at(-1)!;
    removeWaiter(longestKey, longest, evicted);
    forgetIfIdle(longestKey, longest);
    evicted.refuse(new SlotRefusedError('queue_full', 'too many waiting'));
    return true;
  };

  const acquire = (key: string, acquireOptions: AcquireOptions = {}): Promise<SlotPermit> => {
    const { timeoutMs, signal } = acquireOptions;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const state = stateOf(key);
    // Whenever a slot is free, every waiter's key is at its cap, so nobody is passed over here.
    if (held < slots && state.held < slotsPerKey) return Promise.resolve(take(key, state));
    if (!makeRoom(key, state)) {
      forgetIfIdle(key, state);
      return Promise.reject(new SlotRefusedError('queue_full', 'too many waiting'));
    }

    return new Promise<SlotPermit>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const stopWaiting = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const giveUp = (reason: unknown): void => {
        stopWaiting();
        if (!removeWaiter(key, state, waiter)) return;
        forgetIfIdle(key, state);
        reject(reason);
      };
      const onAbort = (): void => giveUp(signal!.reason);
      const waiter: Waiter = {
        grant() {
          stopWaiting();
          resolve(take(key, state));
        },
        refuse(error) {
          stopWaiting();
          reject(error);
        },
      };
      state.waiters.push(waiter);
      waiting += 1;
      waitingKeys.add(key);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (timeoutMs !== undefined) timer = setTimeout(() => giveUp(new SlotWaitTimeoutError(timeoutMs)), timeoutMs);
    });
  };

  return {
    acquire,
    async run(key, task, runOptions) {
      const permit = await acquire(key, runOptions);
      try {
        return await task();
      } finally {
        permit.release();
      }
    },
    admits(key) {
      const state = keys.get(key);
      if (held < slots && (state?.held ?? 0) < slotsPerKey) return true;
      return roomFor(key, state?.waiters.length ?? 0) !== undefined;
    },
    usage(key) {
      if (key === undefined) return { held, waiting };
      const state = keys.get(key);
      return { held: state?.held ?? 0, waiting: state?.waiters.length ?? 0 };
    },
  };
}
