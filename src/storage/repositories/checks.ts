import type { Kysely, SelectQueryBuilder } from 'kysely';
import type {
  Check,
  CheckFilters,
  CheckSort,
  CheckSortField,
  TimeRange,
} from '../../providers/checks/check-provider.js';
import type { DB } from '../schema.js';
import type { ChecksTable } from '../tables/checks.js';

/** A row's place in a sort order: its sort value and its id (the tie-breaker). */
export interface CheckKey {
  readonly value: string;
  readonly id: string;
}

export interface CheckSlice {
  readonly rows: { key: CheckKey; check: Check }[];
  /** More rows lie beyond the slice in the direction it was read. */
  readonly more: boolean;
}

export interface SliceRequest {
  readonly filters: CheckFilters;
  readonly sort: CheckSort;
  readonly limit: number;
  /** Read forwards (in sort order) or backwards from `from`; without `from`, from the start. */
  readonly direction: 'forward' | 'backward';
  readonly from?: { readonly key: CheckKey; readonly inclusive: boolean };
}

export interface NewCheckRow {
  readonly id: string;
  readonly date_created: string;
  readonly send_date: string;
  readonly scheduled: boolean;
  readonly mail_type: string;
  readonly check: Check;
}

/** Thrown when an added check's id is already taken in the company. */
export class DuplicateCheckIdError extends Error {
  constructor() {
    super('a check with this id already exists');
    this.name = 'DuplicateCheckIdError';
  }
}

const INSERT_CHUNK = 500;
const LOOKUP_CHUNK = 500;

type ChecksQuery = SelectQueryBuilder<DB, 'checks', any>;

export interface ChecksRepository {
  /** Inserts every row in one transaction, or none of them. */
  insertAll(companyId: string, rows: readonly NewCheckRow[]): Promise<void>;
  /** Which of these ids the company already has. */
  existingIds(companyId: string, ids: readonly string[]): Promise<string[]>;
  /** Up to `limit` rows in sort order, read from a position, and whether more lie that way. */
  slice(companyId: string, request: SliceRequest): Promise<CheckSlice>;
}

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
      const fetched = await query.orderBy(sort.field, order).orderBy('id', order).limit(limit + 1).execute();
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
  return query.where((eb) =>
    eb.or([eb(field, beyond, key.value), eb.and([eb(field, '=', key.value), eb('id', idOperator, key.id)])]),
  );
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
