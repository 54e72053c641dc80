import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import { gatheredReadOf, keepPrepared } from './database.js';
import type { DB } from './schema.js';

/** A statement compiled once, with the places each call's parameters go into it. */
export interface CompiledOnce<Row> {
  readonly query: CompiledQuery<Row>;
  /** The compiled statement with `params` (in the builder's order) in their places. */
  bind(params: readonly unknown[]): CompiledQuery<Row>;
}

/**
 * Builds and compiles a query once: `build` receives a marker for every parameter, and where
 * each marker lands in the compiled statement is found once, so any parameter order the
 * builder produces is honoured. A marker stands in for a value of any kind (a number for a
 * LIMIT, say): only its place in the parameter list matters.
 */
export function compileOnce<Row>(arity: number, build: (...markers: string[]) => Compilable<Row>): CompiledOnce<Row> {
  const markers = Array.from({ length: arity }, (_, i) => `\u0000precompiled parameter ${i}\u0000`);
  const query = build(...markers).compile();
  const slots = query.parameters.map((value) => markers.indexOf(value as string));
  if (slots.some((slot) => slot < 0)) throw new Error(`a precompiled query has a parameter that is not a placeholder: ${query.sql}`);
  return {
    query,
    bind: (params) => ({ query: query.query, queryId: query.queryId, sql: query.sql, parameters: slots.map((slot) => params[slot]) }),
  };
}

/** Builds a statement from the placeholders its parameters take (compileOnce's markers). */
type StatementBuilder<Row> = (db: Kysely<DB>, ...placeholders: string[]) => Compilable<Row>;

/**
 * A query that Kysely builds and compiles once (compileOnce), then runs with each call's own
 * parameters. A point read on a hot path otherwise spends as long building and compiling its
 * SQL as the database spends answering it. On PostgreSQL the statement is also kept prepared
 * (keepPrepared, database.ts). Either way it is gathered with the turn's other reads (database.ts).
 */
export function precompiled<Row, Params extends readonly unknown[]>(
  db: Kysely<DB>,
  arity: Params['length'],
  build: StatementBuilder<Row>,
): (...params: Params) => Promise<Row[]> {
  const compiled = compiledOnFirstUse(db, arity, build);
  const read = gatheredReadOf(db);
  return async (...params) => read(compiled().bind(params));
}

/**
 * A statement that Kysely builds and compiles once, run with each call's own parameters on the
 * executor it is given: the database, or a unit of work's transaction (executorOf). The writes
 * of a record create or update otherwise spend about as long being built and compiled as
 * SQLite spends running them. On PostgreSQL the statement is also kept prepared.
 */
export function precompiledStatement<Row>(
  db: Kysely<DB>,
  arity: number,
  build: StatementBuilder<Row>,
): (executor: Kysely<DB>, params: readonly unknown[]) => Promise<QueryResult<Row>> {
  const compiled = compiledOnFirstUse(db, arity, build);
  return (executor, params) => executor.executeQuery(compiled().bind(params));
}

/** compileOnce on the first call (a build error surfaces in the first query), its SQL kept prepared on PostgreSQL. */
function compiledOnFirstUse<Row>(db: Kysely<DB>, arity: number, build: StatementBuilder<Row>): () => CompiledOnce<Row> {
  let compiled: CompiledOnce<Row> | undefined;
  return () => {
    if (!compiled) {
      compiled = compileOnce(arity, (...markers) => build(db, ...markers));
      keepPrepared(compiled.query.sql);
    }
    return compiled;
  };
}
