import type { CompiledQuery } from 'kysely';
import type { EventListQuery } from '../domain/events/event-query.js';
import type { EventScalarField } from '../domain/events/event.js';
import type { EventPageRow } from '../storage/tables/events.js';
import { DATA_VERSION_COLUMN, type PageVariant, type SeekKey } from '../storage/repositories/event-query-compiler.js';

/** Queries whose anchors are kept, least recently used dropped first. */
const MAX_QUERIES = 1000;
/** Anchors kept per query. */
const MAX_ANCHORS_PER_QUERY = 64;

/** An event row as a page read with its data version returns it. */
export type VersionedRow = EventPageRow & { readonly [DATA_VERSION_COLUMN]?: number | string | null };

interface QueryAnchors {
  /** The company's data version the anchors were read at: any write of the company moves it. */
  version: number;
  /** Offset in the query's order → the event just before it. */
  readonly byOffset: Map<number, SeekKey>;
}

/** Reads a page statement's rows. */
export type ReadRows = (statement: CompiledQuery<EventPageRow>) => Promise<VersionedRow[]>;
/** The page statement for a query, read by offset alone or from a seek key. */
export type PageStatement = (query: EventListQuery, variant: PageVariant) => CompiledQuery<EventPageRow>;

/**
 * Deep pages of `GET /v1/events` by offset cost as many rows as the offset: page 50 of 100
 * reads 5,000 rows to skip 4,900. Each page read here leaves anchors behind: the sort key of the
 * event just before its first row and of its last row. A later request for the same query at
 * an anchored offset (the same page again, or the next page) seeks to the anchor through the
 * sort field's index and reads only its own rows.
 *
 * An anchor holds only while the company's data is as it was: any write may move events
 * across it. Every read here carries the company's data version from the same statement (one
 * snapshot), so a page read from an anchor is kept only if that version is still the anchor's;
 * otherwise it is read again by offset. Nothing can make an answer differ from the offset read.
 */
export function createEventPageAnchors() {
  const queries = new Map<string, QueryAnchors>();

  const remember = (key: string, version: number, offset: number, row: VersionedRow | undefined, order: EventListQuery['order']) => {
    if (!row) return;
    let known = queries.get(key);
    if (known && known.version !== version) {
      known.version = version;
      known.byOffset.clear();
    }
    if (!known) {
      known = { version, byOffset: new Map() };
      if (queries.size >= MAX_QUERIES) queries.delete(queries.keys().next().value!);
    } else {
      queries.delete(key);
    }
    queries.set(key, known);
    if (known.byOffset.size >= MAX_ANCHORS_PER_QUERY) known.byOffset.clear();
    known.byOffset.set(offset, seekKeyOf(row, order.field));
  };

  /** The nearest anchor at or before `offset`, with its own offset. */
  const nearest = (key: string, offset: number): { offset: number; version: number; seek: SeekKey } | undefined => {
    const known = queries.get(key);
    if (!known) return undefined;
    let best: { offset: number; version: number; seek: SeekKey } | undefined;
    for (const [anchored, seek] of known.byOffset) {
      if (anchored <= offset && (!best || anchored > best.offset)) best = { offset: anchored, version: known.version, seek };
    }
    return best;
  };

  return {
    /**
     * The rows of a page at a non-zero offset: from the nearest anchor when its version still
     * holds, else by offset (reading the event before the page too, as the next anchor).
     */
    async read(companyId: string, query: EventListQuery, statement: PageStatement, rows: ReadRows): Promise<VersionedRows> {
      const key = `${companyId}\n${JSON.stringify(query.filters)}\n${query.order.field} ${query.order.direction}`;
      const anchor = nearest(key, query.offset);
      if (anchor) {
        const fromAnchor = await rows(statement({ ...query, offset: query.offset - anchor.offset }, { seek: anchor.seek, withVersion: true }));
        if (fromAnchor.length > 0 && versionOf(fromAnchor[0]!) === anchor.version) {
          if (fromAnchor.length === query.limit) remember(key, anchor.version, query.offset + query.limit, fromAnchor.at(-1), query.order);
          return { rows: fromAnchor, version: anchor.version };
        }
      }
      const withBefore = await rows(statement({ ...query, offset: query.offset - 1, limit: query.limit + 1 }, { withVersion: true }));
      if (withBefore.length === 0) return { rows: [], version: undefined };
      const version = versionOf(withBefore[0]!);
      remember(key, version, query.offset, withBefore[0], query.order);
      if (withBefore.length === query.limit + 1) remember(key, version, query.offset + query.limit, withBefore.at(-1), query.order);
      return { rows: withBefore.slice(1), version };
    },
  };
}

export type EventPageAnchors = ReturnType<typeof createEventPageAnchors>;

/** Rows of a page read with the company's data version; the version is unknown when no row came back to carry it. */
export interface VersionedRows {
  readonly rows: EventPageRow[];
  readonly version: number | undefined;
}

/** A page statement read with its data version column (see PageVariant.withVersion). */
export async function readWithVersion(statement: CompiledQuery<EventPageRow>, rows: ReadRows): Promise<VersionedRows> {
  const read = await rows(statement);
  return { rows: read, version: read.length > 0 ? versionOf(read[0]!) : undefined };
}

function versionOf(row: VersionedRow): number {
  return Number(row[DATA_VERSION_COLUMN] ?? 0);
}

function seekKeyOf(row: VersionedRow, field: EventScalarField): SeekKey {
  return { value: row[field] ?? null, id: row.id };
}
