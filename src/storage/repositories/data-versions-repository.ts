import { sql, type Kysely } from 'kysely';
import type { DataVersions } from '../../domain/data-versions.port.js';
import { precompiled, precompiledStatement } from '../precompiled-query.js';
import type { DB } from '../schema.js';
import { executorOf } from '../unit-of-work.js';
import { shareFreshReads } from '../../lib/fresh-read-batches.js';

export function createDataVersionsRepository(db: Kysely<DB>): DataVersions {
  // Read by every list request, before its answer (or its cached page) is chosen.
  const versionOf = precompiled(db, 1, (db, companyId) => db.selectFrom('data_versions').select('version').where('company_id', '=', companyId!));
  // Concurrent requests of one company share a read begun after each of them came: a repeated
  // page under load costs one round trip per batch of requests, and never misses a write.
  const committed = shareFreshReads(async (companyId: string) => {
    const [row] = await versionOf(companyId);
    return row === undefined ? 0 : Number(row.version);
  });
  // Written by every change of the company, inside its transaction.
  const bumpVersion = precompiledStatement(db, 1, (db, companyId) =>
    db
      .insertInto('data_versions')
      .values({ company_id: companyId!, version: sql.lit(1) })
      .onConflict((oc) => oc.column('company_id').doUpdateSet({ version: sql<number>`data_versions.version + 1` })),
  );
  return {
    async bump(scope, companyId) {
      await bumpVersion(executorOf(db, scope), [companyId]);
    },

    current: committed,
  };
}
