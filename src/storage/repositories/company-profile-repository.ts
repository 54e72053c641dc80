import type { Kysely } from 'kysely';
import type { CompanyProfileRepository } from '../../domain/company-profile/company-profile-repository.port.js';
import type { DB } from '../schema.js';

/** The profile lives in the company's settings row (migration 0020) beside its retention period. */
export function createCompanyProfileRepository(db: Kysely<DB>): CompanyProfileRepository {
  return {
    async profile(companyId) {
      const row = await db.selectFrom('company_settings').select(['display_name', 'support_email']).where('company_id', '=', companyId).executeTakeFirst();
      return { display_name: row?.display_name ?? null, support_email: row?.support_email ?? null };
    },

    async setProfile(companyId, { display_name, support_email }) {
      await db
        .insertInto('company_settings')
        .values({ company_id: companyId, display_name, support_email })
        .onConflict((oc) => oc.column('company_id').doUpdateSet({ display_name, support_email }))
        .execute();
    },
  };
}
