import { AsyncResource } from 'node:async_hooks';
import { CompiledQuery, RawNode, SelectQueryNode, SqliteDialect, type DatabaseConnection, type Driver, type QueryCompiler, type QueryResult } from 'kysely';
import { LiteralLimitSqliteCompiler } from './sqlite-query-compiler.js';
import { sqliteQueries } from './sqlite-query-channel.js';
import { type CachedStatements, readAllRows } from './sqlite-statements.js';

/**
 * SQLite with two connections: one writer, shared through a mutex (Kysely's own SQLite driver
 * serialises every query on one connection), and one read-only connection for plain SELECTs
 * outside transactions. Under WAL a reader sees the last committed state without waiting, so a
 * long ingest transaction on the writer no longer stalls every read of the API.
 *
 * Transactions start with BEGIN IMMEDIATE: the write lock is taken up front, where SQLite's busy
 * timeout waits for another process to finish. A deferred BEGIN that reads first and writes
 * later fails at once with SQLITE_BUSY when another process committed meanwhile.
 */
export class ReadWriteSqliteDialect extends SqliteDialect {
  private readonly writerLock = new Mutex();
  private readonly inTurn = turnBatches();

  constructor(
    private readonly writer: CachedStatements,
    private readonly reader: CachedStatements | undefined,
  ) {
    super({ database: writer });
  }

  override createQueryCompiler(): QueryCompiler {
    return new LiteralLimitSqliteCompiler();
  }

  override createDriver(): Driver {
    return new ReadWriteSqliteDriver(this.writer, this.reader, this.writerLock);
  }

  /**
   * The rows of a plain read, run on the read-only connection as Kysely would run it outside a
   * transaction, together with the other reads of this turn of the event loop
   * (turnBatches, below); undefined for any other query, or without that connection (an
   * in-memory database reads on the writer), which then goes through Kysely.
   */
  gatheredRead<R>(query: CompiledQuery<R>): Promise<R[]> | undefined {
    const reader = this.reader;
    if (!reader || !isPlainRead(query)) return undefined;
    const read = () => run<R>(reader, query).rows as R[];
    // Traced, the read's span must hang from its own request, not from the one whose read
    // started the batch: the read runs in its caller's async context.
    return this.inTurn(sqliteQueries.hasSubscribers ? AsyncResource.bind(read) : read);
  }

  /** Whether a query or transaction holds the writer, and how many wait for it. */
  writerUsage(): { held: boolean; waiting: number } {
    return { held: this.writerLock.held !== undefined, waiting: this.writerLock.waiting };
  }
}

class ReadWriteSqliteDriver implements Driver {
  constructor(
    private readonly writer: CachedStatements,
    private readonly reader: CachedStatements | undefined,
    private readonly writerLock: Mutex,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedConnection(this.writer, this.reader, this.writerLock);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as RoutedConnection).begin();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as RoutedConnection).commit();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as RoutedConnection).rollback();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as RoutedConnection).release();
  }

  async destroy(): Promise<void> {
    this.reader?.close();
    this.writer.close();
  }
}

class RoutedConnection implements DatabaseConnection {
  private inTransaction = false;

  constructor(
    private readonly writer: CachedStatements,
    private readonly reader: CachedStatements | undefined,
    private readonly writerLock: Mutex,
  ) {}

  async begin(): Promise<void> {
    await this.writerLock.lock();
    try {
      run(this.writer, CompiledQuery.raw('begin immediate'));
      this.inTransaction = true;
    } catch (error) {
      this.writerLock.unlock();
      throw error;
    }
  }

  async commit(): Promise<void> {
    // A failed commit leaves the transaction open for Kysely's rollback, which ends it.
    run(this.writer, CompiledQuery.raw('commit'));
    this.endTransaction();
  }

  async rollback(): Promise<void> {
    try {
      run(this.writer, CompiledQuery.raw('rollback'));
    } finally {
      this.endTransaction();
    }
  }

  release(): void {
    if (this.inTransaction) {
      // Kysely always ends a transaction before releasing; this only guards the lock.
      try {
        run(this.writer, CompiledQuery.raw('rollback'));
      } finally {
        this.endTransaction();
      }
    }
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction) return run(this.writer, query);
    if (this.reader && isPlainRead(query)) return run(this.reader, query);
    await this.writerLock.lock();
    try {
      return run(this.writer, query);
    } finally {
      this.writerLock.unlock();
    }
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error('SQLite streams only select queries');
    const onReader = !this.inTransaction && this.reader !== undefined;
    if (!onReader && !this.inTransaction) await this.writerLock.lock();
    try {
      const statement = (onReader ? this.reader! : this.writer).prepare(query.sql);
      for (const row of statement.iterate(query.parameters as unknown[])) yield { rows: [row as R] };
    } finally {
      if (!onReader && !this.inTransaction) this.writerLock.unlock();
    }
  }

  private endTransaction(): void {
    this.inTransaction = false;
    this.writerLock.unlock();
  }
}

function isPlainRead(query: CompiledQuery): boolean {
  if (SelectQueryNode.is(query.query)) return true;
  return RawNode.is(query.query) && /^\s*(select|with)\b/i.test(query.sql) && !/\b(insert|update|delete)\b/i.test(query.sql);
}

/** The rows of a statement batch: one prepared statement, run once per row. */
class StatementBatch {
  constructor(readonly rows: readonly (readonly unknown[])[]) {}
}

/**
 * A query that runs one single-row statement for every row, on the connection of the current
 * transaction. For bulk writes this beats a multi-row VALUES list on SQLite: better-sqlite3 runs
 * a prepared statement in a tight native loop and SQLite skips parsing a huge statement.
 */
export function statementBatch(sqlText: string, rows: readonly (readonly unknown[])[]): CompiledQuery {
  return CompiledQuery.raw(sqlText, [new StatementBatch(rows)]);
}

function run<R>(database: CachedStatements, query: CompiledQuery): QueryResult<R> {
  if (sqliteQueries.hasSubscribers) return sqliteQueries.traceSync(runStatement<R>, { sql: query.sql }, undefined, database, query);
  return runStatement(database, query);
}

function runStatement<R>(database: CachedStatements, query: CompiledQuery): QueryResult<R> {
  const statement = database.prepare(query.sql);
  const parameters = query.parameters as unknown[];
  if (parameters.length === 1 && parameters[0] instanceof StatementBatch) {
    let changes = 0;
    for (const row of parameters[0].rows) changes += Number(statement.run(row as unknown[]).changes);
    return { numAffectedRows: BigInt(changes), rows: [] };
  }
  if (statement.reader) return { rows: readAllRows<R>(statement, parameters) };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return {
    numAffectedRows: changes === undefined || changes === null ? undefined : BigInt(changes),
    insertId: lastInsertRowid === undefined || lastInsertRowid === null ? undefined : BigInt(lastInsertRowid),
    rows: [],
  };
}

class Mutex {
  held: Promise<void> | undefined;
  /** Callers waiting for the lock. */
  waiting = 0;
  private releaseHeld: (() => void) | undefined;

  async lock(): Promise<void> {
    if (this.held) {
      this.waiting += 1;
      try {
        while (this.held) await this.held;
      } finally {
        this.waiting -= 1;
      }
    }
    this.held = new Promise((resolve) => (this.releaseHeld = resolve));
  }

  unlock(): void {
    const release = this.releaseHeld;
    this.held = undefined;
    this.releaseHeld = undefined;
    release?.();
  }
}

/**
 * Runs synchronous tasks together, once per turn of the event loop: a task asked for while the
 * loop takes in its I/O (parsing requests, running their hooks and handlers) waits for the
 * check phase of the same turn (setImmediate), where every task asked for meanwhile runs, one
 * after the other, before any of their callers goes on.
 *
 * Why: a server that runs one request from its bytes to its answer before it parses the next
 * goes through the whole of its code (HTTP parser, framework, database driver, socket writes)
 * once per request, and that is more code than the processor's caches hold: a SQLite point read
 * between two requests' network code costs several times what it costs in a loop. Gathered, the
 * reads run with their code and pages warm (docs/benchmarks.md, "Mechanisms and their verdicts").
 *
 * A task runs at the latest in the turn it was asked in (one asked for during a batch runs in
 * the next turn), so nothing waits for a timer, and a lone request loses nothing: the check
 * phase follows its I/O at once. A task that throws fails its own caller only.
 */
export function turnBatches(): <T>(task: () => T) => Promise<T> {
  let waiting: Waiting[] = [];
  const runAll = (): void => {
    const batch = waiting;
    waiting = [];
    for (const { task, resolve, reject } of batch) {
      try {
        resolve(task());
      } catch (error) {
        reject(error);
      }
    }
  };
  return <T>(task: () => T) =>
    new Promise<T>((resolve, reject) => {
      if (waiting.push({ task, resolve: resolve as (value: unknown) => void, reject }) === 1) setImmediate(runAll);
    });
}

interface Waiting {
  task: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}
