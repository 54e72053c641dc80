import type { CompiledQuery, Kysely } from 'kysely';
import type { EventFilter, EventListQuery } from '../../domain/events/event-query.js';
import type { DialectName } from '../database.js';
import type { DB } from '../schema.js';
import { isContainsField, matchingKeyValues, MAX_LISTED_VALUES, type ContainsMatches } from './event-query-compiler.js';

type Read = (query: CompiledQuery<{ value: string }>) => Promise<readonly { value: string }[]>;

/**
 * The dictionary values each `__contains` filter of the query matches (null for a filter with
 * too many to list), read through `read`; null when a filter matches no stored value at all, so
 * no event can match.
 */
export async function findContainsMatches(
  db: Kysely<DB>,
  dialect: DialectName,
  companyId: string,
  query: EventListQuery,
  read: Read,
): Promise<ContainsMatches | null> {
  const matches = new Map<EventFilter, readonly string[] | null>();
  for (const filter of query.filters) {
    if (filter.operator !== 'contains' || !isContainsField(filter.field)) continue;
    const found = await read(
      matchingKeyValues(db, dialect, companyId, filter.field, String(filter.value))
        .limit(MAX_LISTED_VALUES + 1)
        .compile(),
    );
    if (found.length === 0) return null;
    matches.set(filter, found.length > MAX_LISTED_VALUES ? null : found.map((row) => row.value));
  }
  return matches;
}
