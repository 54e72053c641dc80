import type { CompiledQuery, Kysely } from 'kysely';
import type { EventFilter, EventListQuery } from '../../domain/events/event-query.js';
import type { DialectName } from '../database.js';
import type { DB } from '../schema.js';
import type { EventColumns } from '../tables/events.js';
import { compileEventPage, type ContainsMatches, type PageVariant } from './event-query-compiler.js';

/** Distinct query shapes kept compiled; a shape is a set of filter fields and operators and an order, so few exist. */
const MAX_SHAPES = 256;

interface CompiledShape {
  readonly sql: string;
  readonly query: CompiledQuery<EventColumns>;
  /** For each parameter of the statement, where its value comes from (see valuesOf). */
  readonly slots: readonly number[];
}

const shapes = new Map<string, CompiledShape>();

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
): CompiledQuery<EventColumns> {
  if (matches.size > 0) return compileEventPage(db, dialect, companyId, query, matches, variant).compile() as CompiledQuery<EventColumns>;
  const key = shapeOf(dialect, query, variant);
  let shape = shapes.get(key);
  if (!shape) {
    shape = compileShape(db, dialect, query, variant);
    if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value!);
    shapes.set(key, shape);
  }
  const values = valuesOf(companyId, query, variant);
  return { ...shape.query, parameters: shape.slots.map((slot) => values[slot]) };
}

function shapeOf(dialect: DialectName, query: EventListQuery, { seek, withVersion }: PageVariant): string {
  let key = `${dialect} ${query.order.field} ${query.order.direction}`;
  for (const filter of query.filters) key += ` ${filter.field}:${filter.operator}`;
  if (seek) key += seek.value === null ? ' after-null' : ' after';
  if (withVersion) key += ' versioned';
  return key;
}

/** Company, each filter's value in the query's order, limit, offset, then the seek key's value and id. */
function valuesOf(companyId: string, query: EventListQuery, { seek }: PageVariant): unknown[] {
  const values: unknown[] = [companyId, ...query.filters.map((filter) => filter.value), query.limit, query.offset];
  if (seek) values.push(seek.value, seek.id);
  return values;
}

function compileShape(db: Kysely<DB>, dialect: DialectName, query: EventListQuery, variant: PageVariant): CompiledShape {
  const marker = (i: number) => `\u0000event page parameter ${i}\u0000`;
  const filters: EventFilter[] = query.filters.map((filter, i) => ({ ...filter, value: marker(i + 1) }));
  const limitSlot = filters.length + 1;
  const placeholderQuery = { ...query, filters, limit: marker(limitSlot) as never, offset: marker(limitSlot + 1) as never };
  // A null seek value is part of the shape (`is null`), not a parameter.
  const seek = variant.seek && { value: variant.seek.value === null ? null : marker(limitSlot + 2), id: marker(limitSlot + 3) };
  const compiled = compileEventPage(db, dialect, marker(0), placeholderQuery, new Map(), { ...variant, seek }).compile() as CompiledQuery<EventColumns>;
  const markers = Array.from({ length: limitSlot + 4 }, (_, i) => marker(i));
  const slots = compiled.parameters.map((value) => markers.indexOf(value as string));
  if (slots.some((slot) => slot < 0)) throw new Error(`an event page statement has a parameter that is not a marker: ${compiled.sql}`);
  return { sql: compiled.sql, query: compiled, slots };
}
