import { invalidBody, type AppError } from './app-error.js';

/**
 * An answer names at most this many problems (keys, lines, items): an error body must not
 * grow with the input. The rest are counted, never listed.
 */
export const MAX_LISTED_PROBLEMS = 100;

/** A problem of one item of a batch (an array entry or an NDJSON line) and, when known, its field. */
export interface ItemProblem {
  /** 0-based position of the item in the batch (for NDJSON, the line number minus one). */
  readonly index: number;
  /** The field at fault, a dotted path such as `to.name`; null when the item as a whole is. */
  readonly field: string | null;
  readonly message: string;
}

/** The first MAX_LISTED_PROBLEMS items, and how many were left out. */
export function boundedList<T>(items: readonly T[]): { listed: T[]; more: number } {
  const listed = items.slice(0, MAX_LISTED_PROBLEMS);
  return { listed, more: items.length - listed.length };
}

/** `a, b, c` or `a, b, c and 7 more`, naming at most MAX_LISTED_PROBLEMS. */
export function namesWithMore(names: readonly string[], separator = ', '): string {
  const { listed, more } = boundedList(names);
  return more > 0 ? `${listed.join(separator)} and ${more} more` : listed.join(separator);
}

/**
 * The 400 refusing a whole batch: every problem found, at once, as `errors: [{index, field,
 * message}]` (at most MAX_LISTED_PROBLEMS of them) with `error_count` the total. A reader that
 * keeps only the first problems of a stream (so as not to hold them all) gives their `total`.
 */
export function batchRefused(summary: string, problems: readonly ItemProblem[], total = problems.length): AppError {
  const { listed } = boundedList(problems);
  const more = total - listed.length;
  const described = listed.map((problem) => `[${problem.index}]${problem.field ? `.${problem.field}` : ''} ${problem.message}`);
  return invalidBody(`${summary}: ${total} problem(s): ${described.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}`, {
    errors: listed,
    error_count: total,
  });
}
