import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { MAX_LISTED_PROBLEMS, type ItemProblem } from '../errors/item-problems.js';
import { nextItem, readJsonItems, type ByteSource, type JsonItemsFormat } from '../lib/json-items.js';
import type { TransactionScope, UnitOfWork } from './unit-of-work.js';

/** Reports a problem of the item being checked: the field at fault (null: the item as a whole) and what is wrong. */
export type ItemReport = (field: string | null, message: string) => void;

/** An item that passed its own check, and where it is in the body. */
export interface CheckedItem<T> {
  readonly position: number;
  readonly item: T;
}

/**
 * One all-or-nothing import of a stream of JSON items (NDJSON or one JSON array): what to check,
 * how to store, and in what steps. `T` is a checked item, `P` a batch of them ready to write.
 */
export interface StreamImport<T, P> {
  readonly source: ByteSource;
  readonly format: JsonItemsFormat;
  readonly unitOfWork: UnitOfWork;
  /**
   * Items read and checked before the transaction begins: a body refused early never takes
   * the write lock, and a body of up to this many items holds the transaction only for its writes.
   */
  readonly readAhead: number;
  /** Items written at a time; the next batch is read and checked while one is written. */
  readonly batchSize: number;
  /**
   * Checks one item and answers what to store; an item with any problem reported is not kept.
   * `scope` is the transaction once it has begun (undefined before).
   */
  check(value: unknown, position: number, report: ItemReport, scope: TransactionScope | undefined): T | undefined | Promise<T | undefined>;
  /** Checks a batch of items as a whole (ids already stored, say), once each has passed `check`. */
  checkBatch?(
    items: readonly CheckedItem<T>[],
    report: (position: number, field: string | null, message: string) => void,
    scope: TransactionScope | undefined,
  ): Promise<void>;
  /** Makes a batch ready to write (encodes it), while the previous batch is written. */
  prepare(items: T[]): P | Promise<P>;
  /** In the transaction, before the first write. */
  begin?(scope: TransactionScope): Promise<void>;
  /** Writes a batch in the transaction; `storedBefore` items were written before it. */
  write(batch: P, scope: TransactionScope, storedBefore: number): Promise<void>;
  /** In the transaction after the last write, when nothing was refused: what commits with the items. */
  finish(scope: TransactionScope, stored: number): Promise<void>;
}

export type StreamImportOutcome =
  | { readonly refused: false; readonly stored: number }
  /**
   * Nothing stored. `problems` lists the first MAX_LISTED_PROBLEMS in the order of the body,
   * `problemCount` counts them all; `bodyProblem` when the body as a whole is broken.
   */
  | { readonly refused: true; readonly problems: readonly ItemProblem[]; readonly problemCount: number; readonly bodyProblem: string | undefined };

/** A problem of the item at `position` (the 1-based line of NDJSON, the 0-based index of an array); an NDJSON message names its line too. */
export function itemProblem(format: JsonItemsFormat, position: number, field: string | null, message: string): ItemProblem {
  return format === 'ndjson' ? { index: position - 1, field, message: `line ${position}: ${message}` } : { index: position, field, message };
}

/**
 * Items read between turns of the event loop: a body already received is read without waiting
 * for I/O, and a write in flight meanwhile must get its answers and go on.
 */
const READ_PER_TURN = 500;
/** Thrown inside the transaction to roll it back once a problem is found. */
const ROLL_BACK = Symbol('roll back');

/**
 * Reads, checks and stores a stream's items in one transaction, a batch at a time. All or
 * nothing: the first problem rolls the transaction back at once, and the rest of the body is
 * still read (and checked) to list every problem.
 */
export async function importStream<T, P>(run: StreamImport<T, P>): Promise<StreamImportOutcome> {
  const { format, unitOfWork, batchSize } = run;
  const items = readJsonItems(run.source, run.format);
  // Only the first problems are kept (an answer lists no more), the rest are counted.
  const problems: ItemProblem[] = [];
  let problemCount = 0;
  let bodyProblem: string | undefined;
  let done = false;
  const refused = () => problemCount > 0 || bodyProblem !== undefined;

  /**
   * Reads up to `size` items and checks them; answers those to store (none once anything was
   * refused). The first problem ends the batch at once, so that a transaction is rolled back
   * without waiting for the rest of the body; once refused, batches are read only to list
   * their problems, in the order of the body.
   */
  const readBatch = async (size: number, scope: TransactionScope | undefined): Promise<T[]> => {
    const clean = !refused();
    const batch: Array<CheckedItem<T>> = [];
    const found: Array<{ position: number; field: string | null; message: string }> = [];
    for (let read = 0; !done && read < size && !(clean && found.length > 0); ) {
      if (++read % READ_PER_TURN === 0) await yieldToEventLoop();
      const step = await nextItem(items);
      if (step.kind === 'end') {
        done = true;
        if (step.bodyProblem !== undefined) bodyProblem = step.bodyProblem;
        break;
      }
      if (step.kind === 'problem') {
        found.push({ position: step.position, field: null, message: step.message });
        done = step.last;
        continue;
      }
      const before = found.length;
      const report: ItemReport = (field, message) => found.push({ position: step.position, field, message });
      const checked = run.check(step.value, step.position, report, scope);
      const item = checked instanceof Promise ? await checked : checked;
      if (item !== undefined && found.length === before) batch.push({ position: step.position, item });
    }
    if (run.checkBatch && batch.length > 0) {
      await run.checkBatch(batch, (position, field, message) => found.push({ position, field, message }), scope);
      // Stable: the problems of one item keep their order.
      found.sort((a, b) => a.position - b.position);
    }
    for (const { position, field, message } of found) {
      problemCount++;
      if (problems.length < MAX_LISTED_PROBLEMS) problems.push(itemProblem(format, position, field, message));
    }
    return refused() ? [] : batch.map(({ item }) => item);
  };

  /** The items read before the transaction, handed out a batch at a time before the body is read on. */
  let readAhead: T[] = [];
  let readAheadAt = 0;
  /** The next batch, read, checked and prepared; none once the body is done or refused. */
  const nextBatch = async (scope: TransactionScope | undefined): Promise<{ count: number; prepared: P } | undefined> => {
    let batch: T[];
    if (readAheadAt < readAhead.length) {
      batch = readAhead.slice(readAheadAt, readAheadAt + batchSize);
      readAheadAt += batch.length;
      if (readAheadAt === readAhead.length) readAhead = [];
    } else {
      batch = await readBatch(batchSize, scope);
    }
    return batch.length === 0 ? undefined : { count: batch.length, prepared: await run.prepare(batch) };
  };

  try {
    readAhead = await readBatch(run.readAhead, undefined);
    let batch = readAhead.length > 0 ? await nextBatch(undefined) : undefined;
    let stored = 0;
    if (batch !== undefined) {
      await unitOfWork
        .run(async (scope) => {
          await run.begin?.(scope);
          while (batch !== undefined) {
            // The next batch is read, checked and prepared while this one is written: the
            // database works on the write meanwhile, so the two overlap.
            const [writing, reading] = await Promise.allSettled([run.write(batch.prepared, scope, stored), nextBatch(scope)]);
            if (writing.status === 'rejected') throw writing.reason;
            if (reading.status === 'rejected') throw reading.reason;
            stored += batch.count;
            batch = reading.value;
          }
          if (refused()) throw ROLL_BACK;
          await run.finish(scope, stored);
        })
        .catch((error: unknown) => {
          if (error !== ROLL_BACK) throw error;
        });
    }
    if (!refused()) return { refused: false, stored };
    // Rolled back at once; the rest of the body is still read, a batch at a time, to list every problem.
    while (!done) await readBatch(batchSize, undefined);
    return { refused: true, problems, problemCount, bodyProblem };
  } finally {
    await items.return(undefined);
  }
}
