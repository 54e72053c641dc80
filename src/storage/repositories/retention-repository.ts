import { sql, type Kysely } from 'kysely';
import type { CompanyPeriod, RetentionRepository } from '../../domain/retention/retention-repository.port.js';
import type { FeedPosition } from '../../domain/events/feed-position.js';
import type { Database } from '../database.js';
import type { DB } from '../schema.js';
import { executorOf } from '../unit-of-work.js';
import { forgetEventIds } from './event-ids.js';
import { detachMonth, dropDetachedMonths, expiredMonths, prepareMonths } from './event-partitions.js';
import { lockKeyValuesForRemoval, pruneKeyValues, REMOVED_KEY_COLUMNS, type RemovedKeyValues } from './key-value-pruning.js';

/** The advisory lock a PostgreSQL replica holds while it sweeps (two int4 keys: "wrs", then "retention"). */
const SWEEP_LOCK = sql`${0x777273}::int4, ${1}::int4`;
/** How the stored setting says "forever" (migration 0016). */
const FOREVER = 0;

export function createRetentionRepository(database: Database): RetentionRepository {
  const { db, dialect } = database;
  const postgres = dialect === 'postgres';
  return {
    async companyRetention(companyId) {
      const row = await db.selectFrom('company_settings').select('retention_days').where('company_id', '=', companyId).executeTakeFirst();
      if (row?.retention_days == null) return undefined;
      return row.retention_days === FOREVER ? null : Number(row.retention_days);
    },

    async setCompanyRetention(companyId, retention) {
      const retention_days = retention === undefined ? null : retention === null ? FOREVER : retention;
      await db
        .insertInto('company_settings')
        .values({ company_id: companyId, retention_days })
        .onConflict((oc) => oc.column('company_id').doUpdateSet({ retention_days }))
        .execute();
    },

    async companiesWithPeriod(deploymentDays) {
      if (deploymentDays === undefined) {
        const rows = await db
          .selectFrom('company_settings')
          .select(['company_id', 'retention_days'])
          .where('retention_days', '>', FOREVER)
          .orderBy('company_id')
          .execute();
        return rows.map((row): CompanyPeriod => ({ companyId: row.company_id, days: Number(row.retention_days) }));
      }
      // Every company that ever wrote has a data version row.
      const rows = await db
        .selectFrom('data_versions')
        .leftJoin('company_settings', 'company_settings.company_id', 'data_versions.company_id')
        .select(['data_versions.company_id as company_id', 'company_settings.retention_days as retention_days'])
        .orderBy('data_versions.company_id')
        .execute();
      return rows
        .map((row): CompanyPeriod => ({ companyId: row.company_id, days: row.retention_days == null ? deploymentDays : Number(row.retention_days) }))
        .filter((company) => company.days !== FOREVER);
    },

    async removeOldest(scope, companyId, before, limit, removedAt) {
      const trx = executorOf(db, scope);
      await lockKeyValuesForRemoval(trx, companyId);
      // The oldest first, along the (company_id, created_at, id) index: each batch reads only its own rows.
      const oldest = trx
        .selectFrom('events')
        .where('company_id', '=', companyId)
        .where('created_at', '<', before)
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit);
      let rows: ({ xid: string; feed_seq: number } & RemovedKeyValues)[];
      if (postgres) {
        // `events` has no index on (company_id, id) on PostgreSQL (migration 0022): the rows are named by (created_at, id).
        const removed = await trx
          .deleteFrom('events')
          .where('company_id', '=', companyId)
          .where(({ eb, refTuple }) => eb(refTuple('created_at', 'id'), 'in', oldest.select(['created_at', 'id']).$asTuple('created_at', 'id')))
          .returning(['id', 'created_at', sql<string>`feed_xid::text`.as('xid'), 'feed_seq', ...REMOVED_KEY_COLUMNS])
          .execute();
        await forgetEventIds(trx, companyId, removed);
        rows = removed;
      } else {
        const removal = trx.deleteFrom('events').where('company_id', '=', companyId).where('id', 'in', oldest.select('id'));
        rows = (await removal.returning(['feed_seq', ...REMOVED_KEY_COLUMNS]).execute()).map((row) => ({ ...row, xid: '0' }));
      }
      if (rows.length === 0) return 0;
      await pruneKeyValues(trx, companyId, rows);
      let xid = 0;
      let seq = 0;
      for (const row of rows) {
        const rowXid = Number(row.xid);
        const rowSeq = Number(row.feed_seq);
        if (rowXid > xid || (rowXid === xid && rowSeq > seq)) [xid, seq] = [rowXid, rowSeq];
      }
      await recordRemovedThrough(trx, companyId, { xid, seq }, removedAt);
      return rows.length;
    },

    async prepareMonths(now) {
      if (postgres) await prepareMonths(db, now);
    },

    expiredMonths: async (cutoffs) => (postgres ? expiredMonths(db, cutoffs) : []),

    async detachMonth(scope, month, cutoffs, removedAt) {
      if (!postgres) return null;
      const trx = executorOf(db, scope);
      const marks = await detachMonth(trx, month, cutoffs);
      if (marks === null) return null;
      for (const { companyId, through } of marks) await recordRemovedThrough(trx, companyId, through, removedAt);
      return marks.map((mark) => mark.companyId);
    },

    dropDetachedMonths: async (batchSize) => (postgres ? dropDetachedMonths(db, batchSize) : 0),

    async oldestKept() {
      // One index probe per company instead of a scan of the whole table.
      const { rows } = await sql<{ oldest: string | null }>`select min(oldest) as oldest from (
        select (select min(created_at) from events where events.company_id = data_versions.company_id) as oldest
        from data_versions) as companies`.execute(db);
      return rows[0]?.oldest ?? null;
    },

    async exclusively(work) {
      // SQLite has one process per file (cluster workers share it, and serialise on its writer lock).
      if (!postgres) return { ran: true, value: await work() };
      // A session lock on a connection held for the sweep: it ends with the session if the process dies.
      return db.connection().execute(async (connection) => {
        const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${SWEEP_LOCK}) as locked`.execute(connection);
        if (!rows[0]?.locked) return { ran: false };
        try {
          return { ran: true, value: await work() };
        } finally {
          await sql`select pg_advisory_unlock(${SWEEP_LOCK})`.execute(connection);
        }
      });
    },
  };
}

/** Raises the company's mark to this position; never lowers it. */
async function recordRemovedThrough(trx: Kysely<DB>, companyId: string, { xid, seq }: FeedPosition, removedAt: string): Promise<void> {
  const higher = sql`(excluded.through_xid > events_removed.through_xid or
    (excluded.through_xid = events_removed.through_xid and excluded.through_seq > events_removed.through_seq))`;
  await trx
    .insertInto('events_removed')
    .values({ company_id: companyId, through_xid: xid, through_seq: seq, removed_at: removedAt })
    .onConflict((oc) =>
      oc.column('company_id').doUpdateSet({
        through_xid: sql`case when ${higher} then excluded.through_xid else events_removed.through_xid end`,
        through_seq: sql`case when ${higher} then excluded.through_seq else events_removed.through_seq end`,
        removed_at: sql`excluded.removed_at`,
      }),
    )
    .execute();
}
