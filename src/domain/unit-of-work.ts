declare const transactionScope: unique symbol;

/**
 * An open transaction, opaque to the domain: only storage creates one and reads it. Repository
 * methods that take a scope write inside that transaction.
 */
export interface TransactionScope {
  readonly [transactionScope]: true;
}

/** One transaction idiom: everything written through the scope is stored if `work` resolves, nothing if it throws. */
export interface UnitOfWork {
  run<T>(work: (scope: TransactionScope) => Promise<T>): Promise<T>;
  /** Calls `callback` once the scope's transaction has committed (never if it rolls back). */
  afterCommit(scope: TransactionScope, callback: () => void): void;
}
