import { sql, type Kysely } from 'kysely';
import type { CompanyDataRemover } from '../../domain/lifecycle/lifecycle-jobs.port.js';
import { OFFBOARDING_ORDER, type OffboardedTable } from '../table-registry.js';
import { dialectOf } from '../dialect.js';
import type { DB } from '../schema.js';
import { executorOf } from '../unit-of-work.js';
import { forgetEventIds } from './event-ids.js';
import { lockKeyValuesForRemoval, pruneKeyValues, REMOVED_KEY_COLUMNS, type RemovedKeyValues } from './key-value-pruning.js';

/**
 * Deletes a company's rows a batch at a time. A table's batch is picked by its physical row
 * address (SQLite's rowid, PostgreSQL's ctid) through its `company_id` index, so one statement
 * serves every table whatever its key, and each batch reads only the rows it deletes. On
 * PostgreSQL `events` is partitioned (migration 0022) and a ctid is unique only within one
 * partition, so its batch is taken from one partition at a time, and its rows of `event_ids` go with it.
 */
export function createCompanyDataRemover(db: Kysely<DB>): CompanyDataRemover {
  const rowAddress = dialectOf(db) === 'postgres' ? sql.raw('ctid') : sql.raw('rowid');
  const postgres = dialectOf(db) === 'postgres';
  const known = new Set<string>(OFFBOARDING_ORDER);

  return {
    tables: OFFBOARDING_ORDER,

    async removeBatch(scope, table, companyId, limit) {
      if (!known.has(table)) throw new Error(`'${table}' is not a company table`);
      const name = sql.table(table as OffboardedTable);
      if (postgres && table === 'events') return removePostgresEventsBatch(executorOf(db, scope), companyId, limit);
      const batch = sql`select ${rowAddress} from ${name} where company_id = ${companyId} limit ${limit}`;
      const statement = postgres ? sql`delete from ${name} where ctid = any(array(${batch}))` : sql`delete from ${name} where rowid in (${batch})`;
      const result = await statement.execute(executorOf(db, scope));
      return Number(result.numAffectedRows ?? 0n);
    },

    async removeUserEvents(scope, companyId, userId, limit) {
      const trx = executorOf(db, scope);
      await lockKeyValuesForRemoval(trx, companyId);
      const users = trx.selectFrom('events').where('company_id', '=', companyId).where('user_id', '=', userId).limit(limit);
      const removal = trx.deleteFrom('events').where('company_id', '=', companyId);
      let removed: RemovedKeyValues[];
      if (postgres) {
        // No index on (company_id, id) on PostgreSQL (migration 0022): the rows are named by (created_at, id).
        const rows = await removal
          .where(({ eb, refTuple }) => eb(refTuple('created_at', 'id'), 'in', users.select(['created_at', 'id']).$asTuple('created_at', 'id')))
          .returning(['id', 'created_at', ...REMOVED_KEY_COLUMNS])
          .execute();
        await forgetEventIds(trx, companyId, rows);
        removed = rows;
      } else {
        removed = await removal.where('id', 'in', users.select('id')).returning(REMOVED_KEY_COLUMNS).execute();
      }
      await pruneKeyValues(trx, companyId, removed);
      return removed.length;
    },

    async removeUserRecordTokens(scope, companyId, userId, limit) {
      const result = await executorOf(db, scope)
        .deleteFrom('record_tokens')
        .where('company_id', '=', companyId)
        .where('key', 'in', (eb) => eb.selectFrom('record_tokens').select('key').where('company_id', '=', companyId).where('user_id', '=', userId).limit(limit))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/** One partition at a time (the one holding a row of the company), by ctid: a TID scan, as the other tables'. */
async function removePostgresEventsBatch(trx: Kysely<DB>, companyId: string, limit: number): Promise<number> {
  const { rows: found } = await sql<{ partition: string }>`select tableoid::regclass::text as partition from events
    where company_id = ${companyId} limit 1`.execute(trx);
  if (found.length === 0) {
    // Every event is gone; an id whose event went without it (a replacement racing a month's drop) goes now.
    await sql`delete from event_ids where company_id = ${companyId}`.execute(trx);
    return 0;
  }
  const partition = sql.raw(found[0]!.partition);
  const { rows } = await sql<{ id: string; created_at: string }>`delete from ${partition}
    where ctid = any(array(select ctid from ${partition} where company_id = ${companyId} limit ${limit}))
    returning id, created_at`.execute(trx);
  await forgetEventIds(trx, companyId, rows);
  return rows.length;
}
