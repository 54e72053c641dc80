import { sql, type Compilable, type CompiledQuery, type Kysely } from 'kysely';
import type { EventFilter, EventListQuery } from '../domain/events/event-query.js';
import type { DialectName } from '../storage/database.js';
import type { DB } from '../storage/schema.js';
import type { EventPageRow } from '../storage/tables/events.js';
import { compileOnce, type CompiledOnce } from '../storage/precompiled-query.js';
import { keepPrepared } from '../storage/prepared-statements.js';
import { compileEventPage, type ContainsMatches, type PageVariant } from '../storage/repositories/event-query-compiler.js';

/**
 * Distinct query shapes kept compiled; a shape is a set of filter fields and operators, an
 * order and (on SQLite) a limit, so few exist.
 */
const MAX_SHAPES = 256;

const shapes = new Map<string, CompiledOnce<EventPageRow>>();

/**
 * The page query of compileEventPage, built and compiled by Kysely once per query shape (which
 * filters with which operators, the order): building it costs as much as SQLite takes to read a
 * small page. A query with `__contains` matches lists the matched values in its SQL, so it is
 * built each time.
 */
export function eventPageStatement(
  db: Kysely<DB>,
  dialect: DialectName,
  companyId: string,
  query: EventListQuery,
  matches: ContainsMatches,
  variant: PageVariant = {},
): CompiledQuery<EventPageRow> {
  if (matches.size > 0) return compileEventPage(db, dialect, companyId, query, matches, variant).compile() as CompiledQuery<EventPageRow>;
  const prepared = dialect === 'postgres' && plannedAlikeForEveryValue(query, variant);
  const key = shapeOf(dialect, query, variant, prepared);
  let shape = shapes.get(key);
  if (!shape) {
    shape = compileShape(db, dialect, query, variant, prepared);
    if (prepared) keepPrepared(shape.query.sql);
    if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value!);
    shapes.set(key, shape);
  }
  return shape.bind(valuesOf(companyId, query, variant));
}

/**
 * PostgreSQL page shapes whose best plan is the same whatever the values: in `created_at`
 * order, no filter, read by offset. These are kept as prepared statements, so PostgreSQL stops
 * planning them anew (planning took longer than running a 100-event page); their LIMIT is
 * written into the SQL so that a cached plan knows how few rows are wanted. Other shapes are
 * planned for each request's values. An exact filter is among them since `events` has month
 * partitions (migration 0022): its index orders the rows of one partition only, and the cached
 * plan, which cannot know how many rows a value matches, sorts every matching row of every month
 * instead of merging each month's index in order.
 */
function plannedAlikeForEveryValue(query: EventListQuery, { seek }: PageVariant): boolean {
  return !seek && query.order.field === 'created_at' && query.filters.length === 0;
}

function shapeOf(dialect: DialectName, query: EventListQuery, { seek, withVersion, versionRowFirst }: PageVariant, prepared: boolean): string {
  let key = `${dialect} ${query.order.field} ${query.order.direction}`;
  for (const filter of query.filters) key += ` ${filter.field}:${filter.operator}`;
  if (seek) key += seek.value === null ? ' after-null' : ' after';
  if (withVersion) key += ' versioned';
  if (versionRowFirst) key += ' version-row';
  if (dialect === 'sqlite' || prepared) key += ` limit ${query.limit}`;
  return key;
}

/** Company, each filter's value in the query's order, limit, offset, then the seek key's value and id. */
function valuesOf(companyId: string, query: EventListQuery, { seek }: PageVariant): unknown[] {
  const values: unknown[] = [companyId, ...query.filters.map((filter) => filter.value), query.limit, query.offset];
  if (seek) values.push(seek.value, seek.id);
  return values;
}

/** The statement of a shape, its parameters in valuesOf's order. */
function compileShape(db: Kysely<DB>, dialect: DialectName, query: EventListQuery, variant: PageVariant, prepared: boolean): CompiledOnce<EventPageRow> {
  const arity = query.filters.length + 3 + (variant.seek ? 2 : 0);
  return compileOnce(arity, (companyId, ...markers) => {
    const filters: EventFilter[] = query.filters.map((filter, i) => ({ ...filter, value: markers[i]! }));
    const [limit, offset, seekValue, seekId] = markers.slice(filters.length);
    // SQLite's LIMIT is written into the statement (sqlite-query-compiler.ts), as a prepared
    // shape's is on PostgreSQL, so it is part of those shapes.
    const literalLimit = dialect === 'sqlite' ? query.limit : prepared ? sql.lit(query.limit) : limit;
    const shaped = { ...query, filters, limit: literalLimit as never, offset: offset as never };
    // A null seek value is part of the shape (`is null`), not a parameter.
    const seek = variant.seek && { value: variant.seek.value === null ? null : seekValue, id: seekId! };
    return compileEventPage(db, dialect, companyId!, shaped, new Map(), { ...variant, seek }) as unknown as Compilable<EventPageRow>;
  });
}
