import { sql, type Kysely } from 'kysely';
import type { DataVersions } from '../../domain/data-versions.port.js';
import { precompiled } from '../precompiled-query.js';
import type { DB } from '../schema.js';
import { executorOf } from '../unit-of-work.js';

export function createDataVersionsRepository(db: Kysely<DB>): DataVersions {
  // Read by every list request, before its answer (or its cached page) is chosen.
  const versionOf = precompiled(db, 1, (db, companyId) =>
    db.selectFrom('data_versions').select('version').where('company_id', '=', companyId!),
  );
  return {
    async bump(scope, companyId) {
      await executorOf(db, scope)
        .insertInto('data_versions')
        .values({ company_id: companyId, version: 1 })
        .onConflict((oc) => oc.column('company_id').doUpdateSet({ version: sql<number>`data_versions.version + 1` }))
        .execute();
    },

    async current(companyId) {
      const [row] = await versionOf(companyId);
      return row === undefined ? 0 : Number(row.version);
    },
  };
}
