import { sql, type Kysely } from 'kysely';
import type { CompanyDataRemover } from '../../domain/lifecycle/lifecycle-jobs.port.js';
import { COMPANY_TABLES, type CompanyTable } from '../company-tables.js';
import { dialectOf } from '../dialect.js';
import type { DB } from '../schema.js';
import { executorOf } from '../unit-of-work.js';
import { lockKeyValuesForRemoval, pruneKeyValues, REMOVED_KEY_COLUMNS } from './key-value-pruning.js';

/**
 * Deletes a company's rows a batch at a time. A table's batch is picked by its physical row
 * address (SQLite's rowid, PostgreSQL's ctid) through its `company_id` index, so one statement
 * serves every table whatever its key, and each batch reads only the rows it deletes.
 */
export function createCompanyDataRemover(db: Kysely<DB>): CompanyDataRemover {
  const rowAddress = dialectOf(db) === 'postgres' ? sql.raw('ctid') : sql.raw('rowid');
  const postgres = dialectOf(db) === 'postgres';
  const known = new Set<string>(COMPANY_TABLES);

  return {
    tables: COMPANY_TABLES,

    async removeBatch(scope, table, companyId, limit) {
      if (!known.has(table)) throw new Error(`'${table}' is not a company table`);
      const name = sql.table(table as CompanyTable);
      const batch = sql`select ${rowAddress} from ${name} where company_id = ${companyId} limit ${limit}`;
      const statement = postgres ? sql`delete from ${name} where ctid = any(array(${batch}))` : sql`delete from ${name} where rowid in (${batch})`;
      const result = await statement.execute(executorOf(db, scope));
      return Number(result.numAffectedRows ?? 0n);
    },

    async removeUserEvents(scope, companyId, userId, limit) {
      const trx = executorOf(db, scope);
      await lockKeyValuesForRemoval(trx, companyId);
      const removed = await trx
        .deleteFrom('events')
        .where('company_id', '=', companyId)
        .where('id', 'in', (eb) => eb.selectFrom('events').select('id').where('company_id', '=', companyId).where('user_id', '=', userId).limit(limit))
        .returning(REMOVED_KEY_COLUMNS)
        .execute();
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
