import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export type CollectGarbage = (options?: { type?: 'major' | 'minor' }) => void;

/**
 * V8's `gc` function, for the few places that know better than V8's heuristics when memory
 * should be given back. V8 hands it only to a context created while `--expose-gc` is on, hence
 * the new context; the flag is off again at once.
 */
export function garbageCollector(): CollectGarbage {
  const exposed = (globalThis as { gc?: CollectGarbage }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as CollectGarbage;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
