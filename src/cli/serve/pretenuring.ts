import { setFlagsFromString } from 'node:v8';

/**
 * V8 "pretenures" an allocation site, allocating its objects straight in the old generation,
 * once most objects from it have survived a young collection. A request's rows, strings and
 * answer often live across one young collection while other requests run (a page's rows
 * arrive over several socket reads), so V8 pretenures them, although each dies with its
 * request a few milliseconds later. That short-lived garbage then fills the old generation,
 * and the young objects it points to survive young collections through it: far more copied,
 * promoted and fully collected than without pretenuring (docs/benchmarks.md, "Mechanisms and
 * their verdicts"). A service whose objects live as long as a request gains nothing from it.
 *
 * V8 reads the flag at each collection and each allocation site it sets up, so it takes effect
 * for this thread and the threads started after it (the PDF render threads).
 */
export function stopPretenuring(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
