import { sql, type Kysely } from 'kysely';
import type { StoredErasure } from '../../domain/lifecycle/erasure.js';
import type { ErasuresRepository } from '../../domain/lifecycle/lifecycle-jobs.port.js';
import { isUniqueViolation } from '../database-errors.js';
import type { DB } from '../schema.js';
import type { ErasuresTable } from '../tables/lifecycle.js';
import { executorOf } from '../unit-of-work.js';

export function createErasuresRepository(db: Kysely<DB>): ErasuresRepository {
  const selectJobs = () => db.selectFrom('erasures').selectAll();

  async function runningOf(companyId: string, subjectHash: string) {
    return selectJobs().where('company_id', '=', companyId).where('subject_hash', '=', subjectHash).where('state', '=', 'running').executeTakeFirst();
  }

  return {
    async start(job) {
      const running = await runningOf(job.companyId, job.subjectHash);
      if (running) return { erasure: erasureOf(running), created: false };
      const row: ErasuresTable = {
        company_id: job.companyId,
        id: job.id,
        field: 'user_id',
        subject_hash: job.subjectHash,
        subject_sealed: job.subjectSealed,
        running_subject_hash: job.subjectHash,
        state: 'running',
        requested_by: job.requestedBy,
        requested_at: job.at,
        updated_at: job.at,
        finished_at: null,
        lease_until: null,
        events_removed: 0,
        record_tokens_removed: 0,
        batches: 0,
      };
      try {
        await db.insertInto('erasures').values(row).execute();
        return { erasure: erasureOf(row), created: true };
      } catch (error) {
        // The same person's erasure asked twice at once: the partial unique index keeps one.
        const winner = isUniqueViolation(error) ? await runningOf(job.companyId, job.subjectHash) : undefined;
        if (!winner) throw error;
        return { erasure: erasureOf(winner), created: false };
      }
    },

    async get(companyId, id) {
      const row = await selectJobs().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
      return row && erasureOf(row);
    },

    async list(companyId) {
      const rows = await selectJobs().where('company_id', '=', companyId).orderBy('id', 'desc').execute();
      return rows.map(erasureOf);
    },

    async running() {
      const rows = await db
        .selectFrom('erasures')
        .select(['company_id', 'id'])
        .where('state', '=', 'running')
        .orderBy('requested_at')
        .orderBy('company_id')
        .orderBy('id')
        .execute();
      return rows.map((row) => ({ companyId: row.company_id, id: row.id }));
    },

    async claim(companyId, id, now, until) {
      const result = await db
        .updateTable('erasures')
        .set({ lease_until: until })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where('state', '=', 'running')
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async addProgress(scope, companyId, id, removed, now, until) {
      await executorOf(db, scope)
        .updateTable('erasures')
        .set({
          events_removed: sql`events_removed + ${removed.events}`,
          record_tokens_removed: sql`record_tokens_removed + ${removed.recordTokens}`,
          batches: sql`batches + 1`,
          updated_at: now,
          lease_until: until,
        })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .execute();
    },

    async finish(companyId, id, at) {
      await db
        .updateTable('erasures')
        .set({ state: 'done', subject_sealed: null, running_subject_hash: null, lease_until: null, finished_at: at, updated_at: at })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .execute();
    },
  };
}

function erasureOf(row: ErasuresTable): StoredErasure {
  return {
    id: row.id,
    company_id: row.company_id,
    field: row.field,
    subject_hash: row.subject_hash,
    state: row.state,
    requested_by: row.requested_by,
    requested_at: row.requested_at,
    updated_at: row.updated_at,
    finished_at: row.finished_at,
    removed: { events: Number(row.events_removed), record_tokens: Number(row.record_tokens_removed) },
    batches: Number(row.batches),
    subject_sealed: row.subject_sealed,
    lease_until: row.lease_until,
  };
}
