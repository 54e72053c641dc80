import type { Kysely, Transaction } from 'kysely';
import type { TransactionScope, UnitOfWork } from '../domain/unit-of-work.js';
import type { DB } from './schema.js';

/** The unit of work over Kysely transactions: a scope is the open transaction itself. */
export function createUnitOfWork(db: Kysely<DB>): UnitOfWork {
  return {
    run: (work) => db.transaction().execute((trx) => work(trx as unknown as TransactionScope)),
  };
}

/** What a repository method runs on: the scope's transaction when it was given one, else the database. */
export function executorOf(db: Kysely<DB>, scope: TransactionScope | undefined): Kysely<DB> {
  return scope === undefined ? db : (scope as unknown as Transaction<DB>);
}
