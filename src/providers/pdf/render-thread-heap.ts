/** Garbage a render thread may gather above what was live at its last collection. */
export const HEAP_HEADROOM_BYTES = 32 * 2 ** 20;

/**
 * A thread that has had no render for this long collects in full, so the garbage of a burst
 * (up to the headroom, and its young generation) is given back while the thread waits for the
 * next render or for its idle timeout, instead of being held until then.
 */
export const IDLE_COLLECTION_DELAY_MS = 1_000;

export interface HeapKeeperOptions {
  /** A full, synchronous collection. */
  collect(): void;
  /** The bytes the thread's heap holds now. */
  heapUsed(): number;
  idleDelayMs?: number;
}

export interface HeapKeeper {
  renderStarted(): void;
  renderFinished(): void;
}

/**
 * Left to itself, V8 lets a thread's old generation reach about twice what pdfme keeps live
 * between its full collections, and keeps those pages. Collecting whenever the heap has grown by
 * the headroom over what was live bounds it, for some more CPU a PDF: a smaller headroom saves
 * memory and costs CPU, a larger one the reverse (the measurements are in the benchmarks' history).
 */
export function heapKeeper({ collect, heapUsed, idleDelayMs = IDLE_COLLECTION_DELAY_MS }: HeapKeeperOptions): HeapKeeper {
  let live = heapUsed();
  let inFlight = 0;
  let idle: NodeJS.Timeout | undefined;
  const collectNow = (): void => {
    collect();
    live = heapUsed();
  };
  const collectIfStillIdle = (): void => {
    idle = undefined;
    if (inFlight === 0 && heapUsed() > live) collectNow();
  };
  return {
    renderStarted() {
      inFlight++;
      clearTimeout(idle);
      idle = undefined;
    },
    renderFinished() {
      inFlight--;
      if (heapUsed() >= live + HEAP_HEADROOM_BYTES) collectNow();
      if (inFlight === 0 && idle === undefined) idle = setTimeout(collectIfStillIdle, idleDelayMs).unref();
    },
  };
}
