/**
 * A semaphore shared by many keys (companies) where no key can shut the others out: a key
 * holds at most `slotsPerKey` of the `slots` at once, waiting keys are served round-robin (a
 * key with many waiters gets one slot, then every other waiting key gets its turn), and a wait
 * is bounded by a timeout and an AbortSignal.
 */
export interface FairSemaphoreOptions {
  /** Slots in all: the global bound on the work running at once. */
  readonly slots: number;
  /** Slots one key may hold at once, even while the others are free. */
  readonly slotsPerKey: number;
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
}

export class SlotWaitTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no slot became free within ${timeoutMs} ms`);
    this.name = 'SlotWaitTimeoutError';
  }
}

interface Waiter {
  grant(): void;
}

interface KeyState {
  held: number;
  readonly waiters: Waiter[];
}

export function createFairSemaphore(options: FairSemaphoreOptions): FairSemaphore {
  const { slots, slotsPerKey } = options;
  if (!Number.isInteger(slots) || slots < 1) throw new RangeError('slots must be a positive integer');
  if (!Number.isInteger(slotsPerKey) || slotsPerKey < 1 || slotsPerKey > slots) {
    throw new RangeError('slotsPerKey must be an integer from 1 to slots');
  }
  const keys = new Map<string, KeyState>();
  // Keys with waiters in the order they are served next; a served key moves to the back.
  const turns = new Set<string>();
  let held = 0;

  const stateOf = (key: string): KeyState => {
    let state = keys.get(key);
    if (!state) {
      state = { held: 0, waiters: [] };
      keys.set(key, state);
    }
    return state;
  };

  const forgetIfIdle = (key: string, state: KeyState): void => {
    if (state.held === 0 && state.waiters.length === 0) keys.delete(key);
  };

  const permitFor = (key: string, state: KeyState): SlotPermit => {
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

  const take = (key: string, state: KeyState): SlotPermit => {
    held += 1;
    state.held += 1;
    return permitFor(key, state);
  };

  function serveWaiting(): void {
    while (held < slots) {
      let next: [string, KeyState] | undefined;
      for (const key of turns) {
        const state = keys.get(key)!;
        if (state.held < slotsPerKey) {
          next = [key, state];
          break;
        }
      }
      if (!next) return;
      const [key, state] = next;
      turns.delete(key);
      const waiter = state.waiters.shift()!;
      if (state.waiters.length > 0) turns.add(key);
      waiter.grant();
    }
  }

  const acquire = (key: string, acquireOptions: AcquireOptions = {}): Promise<SlotPermit> => {
    const { timeoutMs, signal } = acquireOptions;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const state = stateOf(key);
    // Whenever a slot is free, every waiter's key is at its cap, so nobody is passed over here.
    if (held < slots && state.held < slotsPerKey) return Promise.resolve(take(key, state));

    return new Promise<SlotPermit>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const stopWaiting = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const giveUp = (reason: unknown): void => {
        stopWaiting();
        const index = state.waiters.indexOf(waiter);
        if (index >= 0) state.waiters.splice(index, 1);
        if (state.waiters.length === 0) turns.delete(key);
        forgetIfIdle(key, state);
        reject(reason);
      };
      const onAbort = (): void => giveUp(signal!.reason);
      const waiter: Waiter = {
        grant() {
          stopWaiting();
          resolve(take(key, state));
        },
      };
      state.waiters.push(waiter);
      if (state.waiters.length === 1) turns.add(key);
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
    usage(key) {
      if (key !== undefined) {
        const state = keys.get(key);
        return { held: state?.held ?? 0, waiting: state?.waiters.length ?? 0 };
      }
      let waiting = 0;
      for (const state of keys.values()) waiting += state.waiters.length;
      return { held, waiting };
    },
  };
}
