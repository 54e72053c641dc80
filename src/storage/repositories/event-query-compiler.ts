import { sql, type Expression, type ExpressionBuilder, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { CONTAINS_FIELDS, EVENT_SCALAR_FIELDS, type ContainsField, type FilterField } from '../../domain/events/event-fields.js';
import type { EventFilter, EventListQuery, EventOrder } from '../../domain/events/event-query.js';
import type { EventScalarField } from '../../domain/events/event.js';
import type { DialectName } from '../database.js';
import type { DB } from '../schema.js';
import type { EventsTable } from '../tables/events.js';

/**
 * The one place where a parsed events query becomes SQL. Column names never come from the
 * request: filters and sort fields are looked up in these whitelists.
 */
const FILTER_COLUMNS: Record<FilterField, keyof EventsTable> = {
  connection_key: 'connection_key',
  type: 'type',
  flow_key: 'flow_key',
  flow_session: 'flow_session',
  step_key: 'step_key',
  selected_decision: 'selected_decision',
  user_id: 'user_id',
  version_key: 'version_key',
  created_at: 'created_at',
};

const SORT_COLUMNS = Object.fromEntries(Object.keys(EVENT_SCALAR_FIELDS).map((field) => [field, field])) as Record<EventScalarField, keyof EventsTable>;

const COMPARISON_SQL = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/**
 * A `__contains` filter is answered in two steps: first the company's distinct values of the
 * key that contain the substring (a small dictionary behind a trigram index), then the events
 * with those values through the key's B-tree index. Up to this many values are compared with
 * an IN list; beyond it the values stay a subquery.
 */
export const MAX_LISTED_VALUES = 500;
/** With 2 to this many values, each value is read in order from its index and the pages merged. */
const MAX_MERGED_VALUES = 64;

/** The dictionary values found for each `__contains` filter; null when there were too many to list. */
export type ContainsMatches = ReadonlyMap<EventFilter, readonly string[] | null>;

export function isContainsField(field: FilterField): field is ContainsField {
  return (CONTAINS_FIELDS as readonly string[]).includes(field);
}

/**
 * The company's distinct values of a key that contain `needle` (case-sensitive), through the
 * dictionary's trigram index: FTS5 on SQLite (a phrase of three or more characters; instr()
 * keeps the match exact), pg_trgm on PostgreSQL (LIKE, with the pattern escaped).
 */
export function matchingKeyValues(db: Kysely<DB>, dialect: DialectName, companyId: string, field: ContainsField, needle: string) {
  const { match, phrase } = needleParameters(dialect, needle);
  return keyValuesMatching(db, dialect, companyId, field, match, phrase);
}

/** What a `__contains` needle is compared with: a LIKE pattern on PostgreSQL; on SQLite the needle and, from three characters, its FTS5 phrase. */
export interface NeedleParameters {
  readonly match: string;
  readonly phrase: string | undefined;
}

export function needleParameters(dialect: DialectName, needle: string): NeedleParameters {
  if (dialect === 'postgres') return { match: `%${needle.replace(/[\\%_]/g, '\\$&')}%`, phrase: undefined };
  return { match: needle, phrase: [...needle].length >= 3 ? `"${needle.replaceAll('"', '""')}"` : undefined };
}

/** matchingKeyValues with the needle's parameters given (each may be a compileOnce marker). */
export function keyValuesMatching(db: Kysely<DB>, dialect: DialectName, companyId: string, field: string, match: string, phrase: string | undefined) {
  let values = db
    .selectFrom('event_key_values')
    .select('event_key_values.value')
    .where('event_key_values.company_id', '=', companyId)
    .where('event_key_values.field', '=', field);
  if (dialect === 'postgres') return values.where('event_key_values.value', 'like', match);
  if (phrase !== undefined) {
    values = values.where(
      sql<SqlBool>`event_key_values.rowid in (select rowid from event_key_values_trigrams where event_key_values_trigrams match ${phrase})`,
    );
  }
  return values.where(sql<SqlBool>`instr(event_key_values.value, ${match}) > 0`);
}

/** Where a page read by seeking starts: the sort value and id of the event just before it. */
export interface SeekKey {
  readonly value: unknown;
  readonly id: string;
}

/** The column that carries the company's data version beside each event of a page read with it. */
export const DATA_VERSION_COLUMN = 'wrs_data_version';

export interface PageVariant {
  /** Only the events after this one in the page's order (then `offset` counts from it). */
  readonly seek?: SeekKey;
  /** Each row also carries the company's data version, read in the same statement (DATA_VERSION_COLUMN). */
  readonly withVersion?: boolean;
  /**
   * The company's data version as the first row's `body` (0 before any write), then each
   * event's `body` alone, in one statement: a page read by offset with nothing to keep of its
   * rows but their JSON. SQLite only (its UNION ALL yields the arms in order); one column a
   * row is the least a page costs to read.
   */
  readonly versionRowFirst?: boolean;
  /**
   * created_at values, ascending, at which the page is split into arms read on their own and
   * merged in order (pageInArms): the month bounds of PostgreSQL's partitions. For a page in
   * created_at order, read from its start.
   */
  readonly createdAtBounds?: readonly string[];
}

/**
 * One page of events: the company scope, every filter ANDed, the order (nulls last, ties by
 * id in the same direction), limit and offset.
 */
export function compileEventPage(
  db: Kysely<DB>,
  dialect: DialectName,
  companyId: string,
  query: EventListQuery,
  matches: ContainsMatches,
  variant: PageVariant = {},
) {
  const merged = mergeCandidate(matches);
  if (!merged && variant.versionRowFirst) {
    if (dialect !== 'sqlite' || variant.seek || variant.withVersion) throw new Error('a page with its version row first is read on SQLite, by offset alone');
    const bodies = ordered(filtered(db, dialect, companyId, query.filters, matches, query.order, ['body']), 'events', query.order)
      .limit(query.limit)
      .offset(query.offset);
    return db
      .selectNoFrom(sql<string>`coalesce((select version from data_versions where data_versions.company_id = ${companyId}), 0)`.as('body'))
      .unionAll(db.selectFrom(bodies.as('page')).select('page.body') as never);
  }
  if (!merged && variant.createdAtBounds) return pageInArms(db, dialect, companyId, query, matches, variant.createdAtBounds, variant.withVersion);
  if (!merged) {
    let page = filtered(db, dialect, companyId, query.filters, matches, query.order);
    const { seek } = variant;
    if (seek) page = page.where((eb) => after(eb, query.order, seek));
    if (variant.withVersion) {
      page = page.select(
        sql<number | null>`(select version from data_versions where data_versions.company_id = ${companyId})`.as(DATA_VERSION_COLUMN) as never,
      );
    }
    return ordered(page, 'events', query.order).limit(query.limit).offset(query.offset);
  }
  if (variant.seek || variant.withVersion || variant.versionRowFirst) throw new Error('a page of merged __contains values is read by offset alone');
  // ORDER BY created_at LIMIT n over `key IN (many values)` would either sort every matching
  // row or walk the whole company in order; reading each value's rows in index order, at most
  // offset + limit of them, and merging those is bounded by the page instead.
  const others = query.filters.filter((filter) => filter !== merged.filter);
  const column = FILTER_COLUMNS[merged.filter.field];
  const branches = merged.values.map((value) =>
    db
      .selectFrom(
        ordered(filtered(db, dialect, companyId, others, matches, query.order).where(`events.${column}`, '=', value), 'events', query.order)
          .limit(query.offset + query.limit)
          .as('branch'),
      )
      .selectAll(),
  );
  const union = branches.slice(1).reduce((all, branch) => all.unionAll(branch), branches[0]!);
  return ordered(db.selectFrom(union.as('merged')).selectAll(), 'merged', query.order)
    .limit(query.limit)
    .offset(query.offset);
}

/**
 * The page as one arm per range of created_at between `bounds` (and before the first, and from
 * the last on), each read in the page's order up to the page's length, the arms merged in
 * order. Every created_at falls in exactly one arm, so the page is the one compileEventPage
 * reads whatever the bounds; with literal bounds at the partitions' own, each arm is planned
 * against one partition, in its index's order, even by a plan made once for every value.
 */
function pageInArms(
  db: Kysely<DB>,
  dialect: DialectName,
  companyId: string,
  query: EventListQuery,
  matches: ContainsMatches,
  bounds: readonly string[],
  withVersion: boolean | undefined,
) {
  if (query.order.field !== 'created_at') throw new Error('a page in arms is in created_at order');
  // Each arm reads up to offset + limit rows: the page's rows may all come from one arm. (A
  // shape compiled once reads from its start, offset 0, its limit a literal.)
  const armLimit = query.offset === 0 ? query.limit : query.offset + query.limit;
  const arms = [undefined, ...bounds].map((from, i) => {
    let arm = filtered(db, dialect, companyId, query.filters, matches, query.order);
    if (from !== undefined) arm = arm.where('events.created_at', '>=', sql.lit(from));
    const to = bounds[i];
    if (to !== undefined) arm = arm.where('events.created_at', '<', sql.lit(to));
    return db.selectFrom(ordered(arm, 'events', query.order).limit(armLimit).as('arm')).selectAll();
  });
  let page = db
    .selectFrom(
      arms
        .slice(1)
        .reduce((all, arm) => all.unionAll(arm), arms[0]!)
        .as('page'),
    )
    .selectAll();
  if (withVersion) {
    page = page.select(sql<number | null>`(select version from data_versions where data_versions.company_id = ${companyId})`.as(DATA_VERSION_COLUMN) as never);
  }
  const inOrder = ordered(page, 'page', query.order).limit(query.limit);
  return query.offset === 0 ? inOrder : inOrder.offset(query.offset);
}

function mergeCandidate(matches: ContainsMatches): { filter: EventFilter; values: readonly string[] } | null {
  let best: { filter: EventFilter; values: readonly string[] } | null = null;
  for (const [filter, values] of matches) {
    if (values === null || values.length < 2 || values.length > MAX_MERGED_VALUES) continue;
    if (!best || values.length < best.values.length) best = { filter, values };
  }
  return best;
}

/**
 * What a page reads of each event: its stored JSON, and the columns of the page's order (a
 * merged page orders its branches' rows by them; anchors keep the last row's).
 */
function pageColumns(order: EventOrder): readonly (keyof EventsTable)[] {
  const field = SORT_COLUMNS[order.field];
  return field === 'id' ? ['id', 'body'] : ['id', field, 'body'];
}

function filtered(
  db: Kysely<DB>,
  dialect: DialectName,
  companyId: string,
  filters: readonly EventFilter[],
  matches: ContainsMatches,
  order: EventOrder,
  columns: readonly (keyof EventsTable)[] = pageColumns(order),
) {
  const scoped = db.selectFrom('events').select(columns).where('events.company_id', '=', companyId);
  if (filters.length === 0) return scoped;
  return scoped.where((eb) => eb.and(filters.map((filter) => condition(eb, db, dialect, companyId, filter, matches))));
}

function condition(
  eb: ExpressionBuilder<DB, 'events'>,
  db: Kysely<DB>,
  dialect: DialectName,
  companyId: string,
  filter: EventFilter,
  matches: ContainsMatches,
): Expression<SqlBool> {
  const column = FILTER_COLUMNS[filter.field];
  if (filter.operator !== 'contains') return eb(`events.${column}`, COMPARISON_SQL[filter.operator], filter.value);
  if (!isContainsField(filter.field)) throw new Error(`__contains is not defined for ${filter.field}`);
  const values = matches.get(filter);
  if (values === undefined || values === null) {
    return eb(`events.${column}`, 'in', matchingKeyValues(db, dialect, companyId, filter.field, String(filter.value)));
  }
  if (values.length === 0) return sql<SqlBool>`1 = 0`;
  return eb(`events.${column}`, 'in', values);
}

/**
 * The events after `seek` in the page's order (see `ordered`): a row comparison the sort
 * field's index can start from, plus the nulls that sort last.
 */
function after(eb: ExpressionBuilder<DB, 'events'>, order: EventOrder, seek: SeekKey): Expression<SqlBool> {
  const beyond = order.direction === 'asc' ? '>' : '<';
  if (order.field === 'id') return eb('events.id', beyond, seek.id);
  const column = `events.${SORT_COLUMNS[order.field]}` as const;
  if (seek.value === null) return eb.and([eb(column, 'is', null), eb('events.id', beyond, seek.id)]);
  const following = eb(eb.refTuple(column, 'events.id'), beyond, eb.tuple(seek.value as never, seek.id));
  return EVENT_SCALAR_FIELDS[order.field].nullable ? eb.or([following, eb(column, 'is', null)]) : following;
}

/** ORDER BY the sort field (nulls last when it is nullable), then id in the same direction. */
// biome-ignore lint/suspicious/noExplicitAny: the ordering applies to any events-shaped query (table named at run time)
function ordered<QB extends SelectQueryBuilder<any, any, any>>(select: QB, table: string, order: EventOrder): QB {
  const { field, direction } = order;
  const column = sql.ref(`${table}.${SORT_COLUMNS[field]}`);
  let result = EVENT_SCALAR_FIELDS[field].nullable
    ? select.orderBy(column, (ob) => (direction === 'asc' ? ob.asc() : ob.desc()).nullsLast())
    : select.orderBy(column, direction);
  if (field !== 'id') result = result.orderBy(sql.ref(`${table}.id`), direction);
  return result as QB;
}

/**
 * How many events the page holds, before any of them is read: the matching rows counted up to
 * offset + limit, less the offset. SQLite counts them in no order (without a sort, stopping at
 * the bound). PostgreSQL counts them in the page's order, so that the count walks the index the
 * page reads: counted in no order, the rows of a company that holds much of the table are
 * counted by a sequential scan stopping at the bound, and a sequential scan of a large table
 * starts where the last one left off (synchronized scans), so where the company's rows lie
 * together it can read most of the table first (now and then, a count many times slower than
 * the page it counts). A merged `__contains` page
 * keeps the count in no order: ordered, it would walk the company in order (see
 * compileEventPage).
 */
export function compileEventPageCount(db: Kysely<DB>, dialect: DialectName, companyId: string, query: EventListQuery, matches: ContainsMatches) {
  let bounded = filtered(db, dialect, companyId, query.filters, matches, query.order)
    .clearSelect()
    .select(sql<number>`1`.as('one'))
    .limit(query.offset + query.limit);
  if (dialect === 'postgres' && !mergeCandidate(matches)) bounded = ordered(bounded, 'events', query.order);
  return db.selectFrom(bounded.as('bounded')).select((eb) => eb.fn.countAll<number>().as('matching'));
}

/** The count of a page from what compileEventPageCount read. */
export function pageCount(matching: number | string, query: EventListQuery): number {
  return Math.max(0, Number(matching) - query.offset);
}
