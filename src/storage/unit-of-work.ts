import type { Kysely, Transaction } from 'kysely';
import type { TransactionScope, UnitOfWork } from '../domain/unit-of-work.js';
import type { DB } from './schema.js';

const committedCallbacks = new WeakMap<object, Set<() => void>>();

/**
 * Runs `work` in a transaction and, once it has committed, the callbacks registered on it with
 * `afterCommit`. Every transaction that may carry a scope (the unit of work's, and those the
 * repositories open themselves) begins here.
 */
export async function inTransaction<T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  let scope: object | undefined;
  const result = await db.transaction().execute((trx) => {
    scope = trx;
    return work(trx);
  });
  const callbacks = scope && committedCallbacks.get(scope);
  if (callbacks) for (const callback of callbacks) callback();
  return result;
}

/** The unit of work over Kysely transactions: a scope is the open transaction itself. */
export function createUnitOfWork(db: Kysely<DB>): UnitOfWork {
  return {
    run: (work) => inTransaction(db, (trx) => work(trx as unknown as TransactionScope)),
    afterCommit(scope, callback) {
      const callbacks = committedCallbacks.get(scope) ?? new Set();
      callbacks.add(callback);
      committedCallbacks.set(scope, callbacks);
    },
  };
}

/** What a repository method runs on: the scope's transaction when it was given one, else the database. */
export function executorOf(db: Kysely<DB>, scope: TransactionScope | undefined): Kysely<DB> {
  return scope === undefined ? db : (scope as unknown as Transaction<DB>);
}
