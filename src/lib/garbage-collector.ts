import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export type CollectGarbage = (options?: { type?: 'major' | 'minor' }) => void;

type V8Gc = (options?: { type: 'minor' }) => void;

/**
 * V8's `gc` function, for the few places that know better than V8's heuristics when memory
 * should be given back. V8 hands it only to a context created while `--expose-gc` is on, hence
 * the new context; the flag is off again at once.
 *
 * A major collection is asked for as `gc()`: Node 20's V8 (11.3) takes `gc({type: 'major'})`
 * and returns without collecting the old generation (Node 24's collects), while `gc()` is a
 * full, synchronous collection on every version.
 */
export function garbageCollector(): CollectGarbage {
  const gc = v8Gc();
  return (options) => (options?.type === 'minor' ? gc({ type: 'minor' }) : gc());
}

function v8Gc(): V8Gc {
  const exposed = (globalThis as { gc?: V8Gc }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as V8Gc;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
