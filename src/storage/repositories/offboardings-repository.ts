import type { Kysely } from 'kysely';
import type { OffboardingsRepository } from '../../domain/lifecycle/lifecycle-jobs.port.js';
import type { StoredOffboarding } from '../../domain/lifecycle/offboarding.js';
import { isUniqueViolation } from '../database-errors.js';
import type { DB } from '../schema.js';
import type { CompanyOffboardingsTable } from '../tables/lifecycle.js';
import { executorOf } from '../unit-of-work.js';

export function createOffboardingsRepository(db: Kysely<DB>): OffboardingsRepository {
  const find = (companyId: string) => db.selectFrom('company_offboardings').selectAll().where('company_id', '=', companyId).executeTakeFirst();

  return {
    async start(companyId, requestedBy, at) {
      const fresh = {
        state: 'running',
        requested_by: requestedBy,
        requested_at: at,
        updated_at: at,
        finished_at: null,
        lease_until: null,
        removed: '{}',
        batches: 0,
      } as const;
      // Asked again after it finished (new data came in since): a new run, with a new report.
      await db.updateTable('company_offboardings').set(fresh).where('company_id', '=', companyId).where('state', '=', 'done').execute();
      try {
        await db
          .insertInto('company_offboardings')
          .values({ company_id: companyId, ...fresh })
          .execute();
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      return offboardingOf((await find(companyId))!);
    },

    async get(companyId) {
      const row = await find(companyId);
      return row && offboardingOf(row);
    },

    async running() {
      const rows = await db
        .selectFrom('company_offboardings')
        .select('company_id')
        .where('state', '=', 'running')
        .orderBy('requested_at')
        .orderBy('company_id')
        .execute();
      return rows.map((row) => row.company_id);
    },

    async claim(companyId, now, until) {
      const result = await db
        .updateTable('company_offboardings')
        .set({ lease_until: until })
        .where('company_id', '=', companyId)
        .where('state', '=', 'running')
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async saveProgress(scope, companyId, removed, now, until) {
      await executorOf(db, scope)
        .updateTable('company_offboardings')
        .set((eb) => ({ removed: JSON.stringify(removed), batches: eb('batches', '+', 1), updated_at: now, lease_until: until }))
        .where('company_id', '=', companyId)
        .execute();
    },

    async finish(companyId, at, removed) {
      await db
        .updateTable('company_offboardings')
        .set({ state: 'done', lease_until: null, finished_at: at, updated_at: at, removed: JSON.stringify(removed) })
        .where('company_id', '=', companyId)
        .execute();
    },
  };
}

function offboardingOf(row: CompanyOffboardingsTable): StoredOffboarding {
  return {
    company_id: row.company_id,
    state: row.state,
    requested_by: row.requested_by,
    requested_at: row.requested_at,
    updated_at: row.updated_at,
    finished_at: row.finished_at,
    removed: JSON.parse(row.removed) as Record<string, number>,
    batches: Number(row.batches),
    lease_until: row.lease_until,
  };
}
