import { sql, type Compilable, type CompiledQuery, type Kysely } from 'kysely';
import type { EventFilter, EventListQuery } from '../domain/events/event-query.js';
import type { EventJson } from '../domain/events/event.js';
import type { Database, DialectName } from '../storage/database.js';
import { gatheredReadOf, keepPrepared } from '../storage/database.js';
import { compileOnce, type CompiledOnce } from '../storage/precompiled-query.js';
import { primaryReads, type ReadRouting } from '../storage/read-routing.js';
import { createDataVersionsRepository } from '../storage/repositories/data-versions-repository.js';
import { attachedMonths, monthAfter } from '../storage/repositories/event-partitions.js';
import { compileEventPage, type ContainsMatches, type PageVariant } from '../storage/repositories/event-query-compiler.js';
import type { DB } from '../storage/schema.js';
import { eventBodies, type EventPageRow } from '../storage/tables/events.js';
import { findContainsMatchesWithVersion } from './contains-matches.js';
import { createEventPageAnchors, readWithVersion, type EventPageAnchors, type PageStatement } from './event-page-anchors.js';

/**
 * A page of events and the company's data version (data-versions.port.ts) read with its rows in
 * one snapshot, or before them: the page reflects at least every write that version counts.
 */
export interface VersionedEventPage {
  readonly events: readonly EventJson[];
  readonly version: number;
}

export interface FastEventPageReads {
  /** The page the events repository's `list` reads, with the data version it was read at. */
  list(companyId: string, query: EventListQuery): Promise<VersionedEventPage>;
}

/** Pages are read where `reads` sends them, as the events repository's are. */
export function createFastEventPageReads(database: Database, reads: ReadRouting = primaryReads(database)): FastEventPageReads {
  const anchors = createEventPageAnchors();
  return {
    list: (companyId, query) => reads.read(companyId, ({ db, dialect }) => listPage(db, dialect, companyId, query, anchors)),
  };
}

/**
 * A page and the company's data version, read by one statement where it can be (so both come
 * from one snapshot). A page with `__contains` filters reads the version with the dictionary
 * values of its first filter, before its rows; one that came back empty (no row to carry the
 * version) has its version read, then its rows again.
 */
async function listPage(
  db: Kysely<DB>,
  dialect: Database['dialect'],
  companyId: string,
  query: EventListQuery,
  anchors: EventPageAnchors,
): Promise<VersionedEventPage> {
  const statement: PageStatement = (page, variant) => eventPageStatement(db, dialect, companyId, page, new Map(), variant);
  // Every read of the page gathered with the turn's other reads (database.ts).
  const rowsOf = gatheredReadOf(db);
  if (query.filters.some((filter) => filter.operator === 'contains')) {
    const { version, matches } = await findContainsMatchesWithVersion(db, dialect, companyId, query, rowsOf);
    // No stored value contains a substring: no event can match.
    if (matches === null) return { events: [], version };
    return { events: eventBodies(await rowsOf(eventPageStatement(db, dialect, companyId, query, matches))), version };
  }
  if (query.offset === 0 && dialect === 'sqlite') {
    const [version, ...events] = eventBodies(await rowsOf(statement(query, { versionRowFirst: true })));
    return { events, version: Number(version) };
  }
  const versioned =
    query.offset > 0 ? await anchors.read(companyId, query, statement, rowsOf) : await readWithVersion(statement(query, { withVersion: true }), rowsOf);
  if (versioned.version !== undefined) return { events: eventBodies(versioned.rows), version: versioned.version };
  // An empty page carried no version: read it, then the page again after it.
  const version = await versionBefore(db, companyId);
  return { events: eventBodies(await rowsOf(statement(query, {}))), version };
}

/** The data version readers of each database (primary, standby), compiled once. */
const versionReaders = new WeakMap<Kysely<DB>, ReturnType<typeof createDataVersionsRepository>>();

function versionBefore(db: Kysely<DB>, companyId: string): Promise<number> {
  let versions = versionReaders.get(db);
  if (!versions) versionReaders.set(db, (versions = createDataVersionsRepository(db)));
  return versions.current(companyId);
}

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
  const createdAtBounds = dialect === 'postgres' && readInArms(query, variant) ? monthBounds(db) : undefined;
  const shaped = createdAtBounds ? { ...variant, createdAtBounds } : variant;
  const prepared = dialect === 'postgres' && (createdAtBounds !== undefined || plannedAlikeForEveryValue(query, variant));
  const key = shapeOf(dialect, query, shaped, prepared);
  let shape = shapes.get(key);
  if (!shape) {
    shape = compileShape(db, dialect, query, shaped, prepared);
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
 * planned for each request's values, except pages read in arms (readInArms). A filtered page
 * over the partitioned `events` (migration 0022) as one statement is not kept: its index orders
 * the rows of one partition only, and a cached plan, which cannot know how many rows a value
 * matches, sorts every matching row of every month instead of merging each month's index in order.
 */
function plannedAlikeForEveryValue(query: EventListQuery, { seek }: PageVariant): boolean {
  return !seek && query.order.field === 'created_at' && query.filters.length === 0;
}

/**
 * PostgreSQL pages of exact filters in created_at order, from their start: read as one arm per
 * month partition (compileEventPage's createdAtBounds), each arm planned against its one
 * partition in its index's order, so they too are kept prepared and merged without a sort.
 */
function readInArms(query: EventListQuery, { seek, versionRowFirst }: PageVariant): boolean {
  return (
    !seek &&
    !versionRowFirst &&
    query.order.field === 'created_at' &&
    query.offset === 0 &&
    query.filters.length > 0 &&
    query.filters.every((filter) => filter.operator === 'eq')
  );
}

/** How long the month bounds read from a database are used before they are read again. */
const MONTH_BOUNDS_READ_EVERY_MS = 60_000;

interface KnownBounds {
  bounds: readonly string[] | undefined;
  readAt: number;
  reading: boolean;
}

const knownBounds = new WeakMap<Kysely<DB>, KnownBounds>();

/**
 * The created_at bounds of the month partitions attached to `events` (event-partitions.ts), as
 * last read from `db`; undefined until a first read has answered (the page is then planned for
 * its values). They are read again in the background once a minute has passed: a page split at
 * bounds out of date is still the same page, only planned less well until then.
 */
function monthBounds(db: Kysely<DB>): readonly string[] | undefined {
  let known = knownBounds.get(db);
  if (!known) knownBounds.set(db, (known = { bounds: undefined, readAt: 0, reading: false }));
  const entry = known;
  if (!entry.reading && Date.now() - entry.readAt >= MONTH_BOUNDS_READ_EVERY_MS) {
    entry.reading = true;
    attachedMonths(db)
      .then((months) => {
        entry.bounds = months.length === 0 ? undefined : [...new Set(months.flatMap((month) => [month, monthAfter(month)]))].sort();
      })
      // A read that fails keeps the bounds known (the pages are the same either way); the requests meet the database's trouble themselves.
      .catch(() => undefined)
      .finally(() => {
        entry.readAt = Date.now();
        entry.reading = false;
      });
  }
  return entry.bounds;
}

function shapeOf(dialect: DialectName, query: EventListQuery, { seek, withVersion, versionRowFirst, createdAtBounds }: PageVariant, prepared: boolean): string {
  let key = `${dialect} ${query.order.field} ${query.order.direction}`;
  for (const filter of query.filters) key += ` ${filter.field}:${filter.operator}`;
  if (seek) key += seek.value === null ? ' after-null' : ' after';
  if (createdAtBounds) key += ` from the start, in arms at ${createdAtBounds.join(' ')}`;
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
    // A page in arms is read from its start: no OFFSET, and each arm's LIMIT the page's own.
    const shaped = { ...query, filters, limit: literalLimit as never, offset: variant.createdAtBounds ? 0 : (offset as never) };
    // A null seek value is part of the shape (`is null`), not a parameter.
    const seek = variant.seek && { value: variant.seek.value === null ? null : seekValue, id: seekId! };
    return compileEventPage(db, dialect, companyId!, shaped, new Map(), { ...variant, seek }) as unknown as Compilable<EventPageRow>;
  });
}
