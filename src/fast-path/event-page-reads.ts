import type { Kysely } from 'kysely';
import type { EventListQuery } from '../domain/events/event-query.js';
import type { EventJson } from '../domain/events/event.js';
import type { Database } from '../storage/database.js';
import { gatheredReadOf } from '../storage/database.js';
import { primaryReads, type ReadRouting } from '../storage/read-routing.js';
import { createDataVersionsRepository } from '../storage/repositories/data-versions-repository.js';
import type { DB } from '../storage/schema.js';
import { eventBodies } from '../storage/tables/events.js';
import { findContainsMatchesWithVersion } from './contains-matches.js';
import { createEventPageAnchors, readWithVersion, type EventPageAnchors, type PageStatement } from './event-page-anchors.js';
import { eventPageStatement } from './event-page-statements.js';

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
