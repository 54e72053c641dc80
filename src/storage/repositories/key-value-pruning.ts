import { sql, type Kysely } from 'kysely';
import { CONTAINS_FIELDS, type ContainsField } from '../../domain/events/event-fields.js';
import type { TransactionScope } from '../../domain/unit-of-work.js';
import { dialectOf } from '../dialect.js';
import type { DB } from '../schema.js';

/**
 * The `__contains` dictionary (event_key_values) and removals of events (an erasure's batch, a
 * retention batch) in the same transaction: the removal returns the dictionary keys of the rows
 * it deleted, and the values no kept event carries any more leave the dictionary with them.
 *
 * On PostgreSQL an ingest adds a value with `on conflict do nothing`, which takes no lock on the
 * row it finds: a removal that could not yet see that ingest's events would delete the value
 * under it, and its events would never match `__contains`. So each transaction of the company
 * that adds values holds a shared transaction-level advisory lock, taken before it writes its
 * events, and a removal holds the exclusive one from before its delete: the two wait for each
 * other's commit. SQLite has one writer, so the two never overlap.
 */
const KEY_VALUES_LOCK_CLASS = 0x77726b; // "wrk": not retention's sweep lock (0x777273)

/** The contains keys of removed events, as a removal's `returning` gives them. */
export type RemovedKeyValues = Readonly<Record<ContainsField, string | null>>;

export const REMOVED_KEY_COLUMNS = CONTAINS_FIELDS;

const lockedForAdding = new WeakMap<TransactionScope, Set<string>>();

/** Before an ingest writes events of the company: the shared lock, once per transaction. */
export async function lockKeyValuesForAdding(trx: Kysely<DB>, scope: TransactionScope, companyId: string): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  let companies = lockedForAdding.get(scope);
  if (companies === undefined) lockedForAdding.set(scope, (companies = new Set()));
  if (companies.has(companyId)) return;
  await sql`select pg_advisory_xact_lock_shared(${KEY_VALUES_LOCK_CLASS}::int4, hashtext(${companyId}))`.execute(trx);
  companies.add(companyId);
}

/** Before a removal deletes events of the company: the exclusive lock, until its commit. */
export async function lockKeyValuesForRemoval(trx: Kysely<DB>, companyId: string): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(${KEY_VALUES_LOCK_CLASS}::int4, hashtext(${companyId}))`.execute(trx);
}

/**
 * Deletes from the dictionary the values of `removed` that no event of the company still
 * carries: at most one statement per key, each bounded by the removal's batch. Answers how many
 * values went.
 */
export async function pruneKeyValues(trx: Kysely<DB>, companyId: string, removed: readonly RemovedKeyValues[]): Promise<number> {
  let pruned = 0;
  for (const field of CONTAINS_FIELDS) {
    const values = [...new Set(removed.map((row) => row[field]).filter((value): value is string => value !== null))];
    if (values.length === 0) continue;
    const result = await trx
      .deleteFrom('event_key_values')
      .where('company_id', '=', companyId)
      .where('field', '=', field)
      .where('value', 'in', values)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('events')
              .select(sql`1`.as('one'))
              .where('events.company_id', '=', companyId)
              .where(sql.ref(`events.${field}`), '=', sql.ref('event_key_values.value')),
          ),
        ),
      )
      .executeTakeFirst();
    pruned += Number(result.numDeletedRows);
  }
  return pruned;
}
