import pg from 'pg';
import { SqliteDatabase } from '../../src/storage/sqlite-driver.js';

/**
 * Records the SQL text of every statement the drivers run while `record` is open: better-sqlite3
 * statements and pg queries, below Kysely, so transactions, raw SQL and prepared batches show as
 * the database receives them.
 */
let recording: string[] | undefined;

function remember(text: string): void {
  // A prepared batch runs one statement per row; the snapshot shows it once.
  if (recording && recording.at(-1) !== text) recording.push(text);
}

const statementPrototype = Object.getPrototypeOf(new SqliteDatabase(':memory:').prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
for (const method of ['run', 'get', 'all', 'iterate']) {
  const original = statementPrototype[method]!;
  statementPrototype[method] = function (this: { source: string }, ...args: unknown[]) {
    remember(this.source);
    return original.apply(this, args);
  };
}

const pgQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const [query] = args;
  remember(typeof query === 'string' ? query : String((query as { text?: unknown }).text));
  return pgQuery.apply(this, args);
} as typeof pg.Client.prototype.query;

/** The statements `work` ran, in order. */
export async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  if (recording) throw new Error('SQL capture does not nest');
  recording = [];
  try {
    await work();
    return recording;
  } finally {
    recording = undefined;
  }
}
