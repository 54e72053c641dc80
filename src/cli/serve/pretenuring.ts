import { setFlagsFromString } from 'node:v8';

/**
 * V8 "pretenures" an allocation site, allocating its objects straight in the old generation,
 * once most objects from it have survived a young collection. A request's rows, strings and
 * answer often live across one young collection while other requests run (a page's rows
 * arrive over several socket reads), so V8 pretenures them, although each dies with its
 * request a few milliseconds later. That short-lived garbage then fills the old generation,
 * and the young objects it points to survive young collections through it: measured on
 * PostgreSQL's 100-event page at 10 connections, 700 MB copied or promoted by 140 young
 * collections in 10 s and 17-43 full collections, against 19 MB and 0-1 without
 * pretenuring (docs/benchmarks.md, "Allocation-site pretenuring"). A service whose objects
 * live as long as a request gains nothing from it.
 *
 * V8 reads the flag at each collection and each allocation site it sets up, so it takes effect
 * for this thread and the threads started after it (the PDF render threads).
 */
export function stopPretenuring(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
