/**
 * Timeouts that count each job's share of one thread. Renders interleave on a render thread, so
 * while n of them run, each advances at about 1/n of the thread: a render's clock runs at that
 * speed, and a render is not timed out for the time its neighbours took.
 */
export interface ShareTimers<K> {
  /** Starts `key`'s clock with `budgetMs` of its share to spend. */
  start(key: K, budgetMs: number): void;
  /**
   * Stops charging `key`'s clock until `resume`: the thread is doing work for it that is not
   * the render (loading code it needs). It keeps its place in the split, so its neighbours are
   * not charged for that work either.
   */
  pause(key: K): void;
  resume(key: K): void;
  stop(key: K): void;
  stopAll(): void;
}

interface Clock {
  readonly budgetMs: number;
  usedMs: number;
  timer: NodeJS.Timeout | undefined;
  paused: boolean;
}

export function createShareTimers<K>(onExpired: (key: K) => void): ShareTimers<K> {
  const clocks = new Map<K, Clock>();
  let since = performance.now();

  /** Charges the time since the last change to every running clock, split evenly. */
  const charge = (): void => {
    const now = performance.now();
    if (clocks.size > 0) for (const clock of clocks.values()) if (!clock.paused) clock.usedMs += (now - since) / clocks.size;
    since = now;
  };

  const reschedule = (): void => {
    for (const [key, clock] of clocks) {
      clearTimeout(clock.timer);
      clock.timer = clock.paused ? undefined : setTimeout(() => onExpired(key), Math.max(0, (clock.budgetMs - clock.usedMs) * clocks.size));
    }
  };

  const setPaused = (key: K, paused: boolean): void => {
    const clock = clocks.get(key);
    if (!clock || clock.paused === paused) return;
    charge();
    clock.paused = paused;
    reschedule();
  };

  return {
    start(key, budgetMs) {
      charge();
      clocks.set(key, { budgetMs, usedMs: 0, timer: undefined, paused: false });
      reschedule();
    },
    pause(key) {
      setPaused(key, true);
    },
    resume(key) {
      setPaused(key, false);
    },
    stop(key) {
      const clock = clocks.get(key);
      if (!clock) return;
      charge();
      clearTimeout(clock.timer);
      clocks.delete(key);
      reschedule();
    },
    stopAll() {
      for (const clock of clocks.values()) clearTimeout(clock.timer);
      clocks.clear();
    },
  };
}
