import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { keepPrepared } from './prepared-statements.js';
import type { DB } from './schema.js';

/**
 * A query that Kysely builds and compiles once, then runs with each call's own parameters. A
 * point read on a hot path otherwise spends as long building and compiling its SQL as the
 * database spends answering it. `build` receives a placeholder for every parameter; where each
 * one lands in the compiled statement is found once, so any parameter order the builder
 * produces is honoured. On PostgreSQL the statement is also kept prepared (prepared-statements.ts).
 */
export function precompiled<Row, Params extends readonly unknown[]>(
  db: Kysely<DB>,
  arity: Params['length'],
  build: (db: Kysely<DB>, ...placeholders: string[]) => Compilable<Row>,
): (...params: Params) => Promise<Row[]> {
  let compiled: { query: CompiledQuery<Row>; slots: number[] } | undefined;
  const compile = () => {
    const placeholders = Array.from({ length: arity }, (_, i) => `\u0000precompiled parameter ${i}\u0000`);
    const query = build(db, ...placeholders).compile();
    const slots = query.parameters.map((value) => placeholders.indexOf(value as string));
    if (slots.some((slot) => slot < 0)) throw new Error(`a precompiled query has a parameter that is not a placeholder: ${query.sql}`);
    keepPrepared(query.sql);
    return { query, slots };
  };
  return async (...params) => {
    compiled ??= compile();
    const { query, slots } = compiled;
    const result = await db.executeQuery<Row>({ ...query, parameters: slots.map((slot) => params[slot]) });
    return result.rows;
  };
}
