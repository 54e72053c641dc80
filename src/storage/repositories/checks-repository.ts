import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Check, CheckFilters, CheckSortField, TimeRange } from '../../domain/checks/check.js';
import { DuplicateCheckIdError, type CheckKey, type ChecksRepository } from '../../domain/checks/checks-repository.port.js';
import type { DB } from '../schema.js';
import type { ChecksTable } from '../tables/checks.js';
import { isUniqueViolation } from '../database-errors.js';

const INSERT_CHUNK = 500;
const LOOKUP_CHUNK = 500;

// biome-ignore lint/suspicious/noExplicitAny: the selection differs per query that shares the filters
type ChecksQuery = SelectQueryBuilder<DB, 'checks', any>;

export function createChecksRepository(db: Kysely<DB>): ChecksRepository {
  return {
    async insertAll(companyId, rows) {
      try {
        await db.transaction().execute(async (trx) => {
          for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
            const values: ChecksTable[] = rows.slice(start, start + INSERT_CHUNK).map((row) => ({
              company_id: companyId,
              id: row.id,
              date_created: row.date_created,
              send_date: row.send_date,
              scheduled: row.scheduled ? 1 : 0,
              mail_type: row.mail_type,
              body: JSON.stringify(row.check),
            }));
            await trx.insertInto('checks').values(values).execute();
          }
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new DuplicateCheckIdError();
        throw error;
      }
    },

    async existingIds(companyId, ids) {
      const found: string[] = [];
      for (let start = 0; start < ids.length; start += LOOKUP_CHUNK) {
        const rows = await db
          .selectFrom('checks')
          .select('id')
          .where('company_id', '=', companyId)
          .where('id', 'in', ids.slice(start, start + LOOKUP_CHUNK))
          .execute();
        found.push(...rows.map((row) => row.id));
      }
      return found;
    },

    async slice(companyId, request) {
      const { sort, direction, from, limit } = request;
      // Reading backwards walks the reverse order; the caller gets rows back in sort order.
      const ascending = (sort.direction === 'asc') === (direction === 'forward');
      let query: ChecksQuery = applyFilters(
        db.selectFrom('checks').select(['id', 'date_created', 'send_date', 'body']).where('company_id', '=', companyId),
        request.filters,
      );
      if (from) query = startingAt(query, sort.field, from.key, ascending, from.inclusive);
      const order = ascending ? 'asc' : 'desc';
      const fetched = await query
        .orderBy(sort.field, order)
        .orderBy('id', order)
        .limit(limit + 1)
        .execute();
      const rows = fetched.slice(0, limit).map((row) => ({
        key: { value: row[sort.field] as string, id: row.id as string },
        check: JSON.parse(row.body as string) as Check,
      }));
      if (direction === 'backward') rows.reverse();
      return { rows, more: fetched.length > limit };
    },
  };
}

function applyFilters(query: ChecksQuery, filters: CheckFilters): ChecksQuery {
  let filtered = applyRange(query, 'date_created', filters.date_created);
  filtered = applyRange(filtered, 'send_date', filters.send_date);
  if (filters.scheduled !== undefined) filtered = filtered.where('scheduled', '=', filters.scheduled ? 1 : 0);
  if (filters.mail_type !== undefined) filtered = filtered.where('mail_type', '=', filters.mail_type);
  return filtered;
}

function applyRange(query: ChecksQuery, column: CheckSortField, range: TimeRange | undefined): ChecksQuery {
  let filtered = query;
  if (range?.lower) filtered = filtered.where(column, range.lower.inclusive ? '>=' : '>', range.lower.at);
  if (range?.upper) filtered = filtered.where(column, range.upper.inclusive ? '<=' : '<', range.upper.at);
  return filtered;
}

/** Rows strictly after `key` (or from it, when inclusive) in the given walking order. */
function startingAt(query: ChecksQuery, field: CheckSortField, key: CheckKey, ascending: boolean, inclusive: boolean): ChecksQuery {
  const beyond = ascending ? '>' : '<';
  const idOperator = inclusive ? (ascending ? '>=' : '<=') : beyond;
  return query.where((eb) => eb.or([eb(field, beyond, key.value), eb.and([eb(field, '=', key.value), eb('id', idOperator, key.id)])]));
}
