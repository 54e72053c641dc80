import { sql, type Expression, type ExpressionBuilder, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { EVENT_SCALAR_FIELDS } from '../../domain/events/event-fields.js';
import type { EventFilter, EventListQuery, EventOrder } from '../../domain/events/event-query.js';
import type { DialectName } from '../database.js';
import type { DB } from '../schema.js';
import { isContainsField, matchingKeyValues } from './event-query-compiler.js';

const COMPARISON_SQL = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/**
 * The page of GET /v1/events as one SELECT:
 *
 *   select body from events
 *   where company_id = ? and <each filter>
 *   order by <field> [nulls last], id
 *   limit ? offset ?
 *
 * A `__contains` filter is `key in (the company's stored values of the key that contain the
 * substring)`, found in the small dictionary table event_key_values.
 */
export function eventPageQuery(db: Kysely<DB>, dialect: DialectName, companyId: string, query: EventListQuery) {
  const page = matching(db, dialect, companyId, query.filters).select('events.body');
  return ordered(page, query.order).limit(query.limit).offset(query.offset);
}

/**
 * The matching rows counted up to offset + limit (the page holds that less the offset). On
 * PostgreSQL they are counted in the page's order, so the count walks the index the page reads:
 * counted in no order, a company holding much of a large table can be counted by a sequential
 * scan that starts wherever the last one left off.
 */
export function eventPageCountQuery(db: Kysely<DB>, dialect: DialectName, companyId: string, query: EventListQuery) {
  const rows = matching(db, dialect, companyId, query.filters).select(sql<number>`1`.as('one'));
  const bounded = (dialect === 'postgres' ? ordered(rows, query.order) : rows).limit(query.offset + query.limit);
  return db.selectFrom(bounded.as('bounded')).select((eb) => eb.fn.countAll<number | string>().as('matching'));
}

/** ORDER BY the field (nulls last when it may be null), then id in the same direction. */
// biome-ignore lint/suspicious/noExplicitAny: any selection from events orders the same way
function ordered<QB extends SelectQueryBuilder<DB, 'events', any>>(select: QB, { field, direction }: EventOrder): QB {
  const column = `events.${columnOf(field)}` as const;
  let result = EVENT_SCALAR_FIELDS[field].nullable
    ? select.orderBy(column, (order) => (direction === 'asc' ? order.asc() : order.desc()).nullsLast())
    : select.orderBy(column, direction);
  if (field !== 'id') result = result.orderBy('events.id', direction);
  return result as QB;
}

function matching(db: Kysely<DB>, dialect: DialectName, companyId: string, filters: readonly EventFilter[]) {
  const scoped = db.selectFrom('events').where('events.company_id', '=', companyId);
  if (filters.length === 0) return scoped;
  return scoped.where((eb) => eb.and(filters.map((filter) => condition(eb, db, dialect, companyId, filter))));
}

function condition(eb: ExpressionBuilder<DB, 'events'>, db: Kysely<DB>, dialect: DialectName, companyId: string, filter: EventFilter): Expression<SqlBool> {
  const column = `events.${columnOf(filter.field)}` as const;
  if (filter.operator !== 'contains') return eb(column, COMPARISON_SQL[filter.operator], filter.value);
  if (!isContainsField(filter.field)) throw new Error(`__contains is not defined for ${filter.field}`);
  return eb(column, 'in', matchingKeyValues(db, dialect, companyId, filter.field, String(filter.value)));
}

/** Column names never come from the request: a field is looked up in the event's fields. */
function columnOf(field: EventOrder['field']): EventOrder['field'] {
  if (!Object.hasOwn(EVENT_SCALAR_FIELDS, field)) throw new Error(`not an event field: ${field}`);
  return field;
}
