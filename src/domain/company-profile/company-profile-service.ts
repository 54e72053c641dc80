import { invalidBody } from '../../errors/app-error.js';
import type { FormCompany, CompanyProfile } from './company-profile.js';
import { profileProblems, trimmedOrNull } from './company-profile.js';
import type { CompanyProfileRepository } from './company-profile-repository.port.js';

/** What an operator sends: a value sets it, null clears it, an absent one is left as it is. */
export interface ProfileChanges {
  readonly display_name?: string | null;
  readonly support_email?: string | null;
}

export interface CompanyProfileService {
  get(companyId: string): Promise<CompanyProfile>;
  /** Applies the changes after checking them all (400 naming each problem; nothing stored then). */
  update(companyId: string, changes: ProfileChanges): Promise<CompanyProfile>;
  /** What the hosted form shows of the company to a record token of it: the profile's two values. */
  forForm(companyId: string): Promise<FormCompany>;
}

export function createCompanyProfileService(repository: CompanyProfileRepository): CompanyProfileService {
  const get = async (companyId: string): Promise<CompanyProfile> => ({ company_id: companyId, ...(await repository.profile(companyId)) });
  return {
    get,
    async update(companyId, changes) {
      const current = await repository.profile(companyId);
      const next: FormCompany = {
        display_name: changes.display_name === undefined ? current.display_name : trimmedOrNull(changes.display_name),
        support_email: changes.support_email === undefined ? current.support_email : trimmedOrNull(changes.support_email),
      };
      const problems = profileProblems(next);
      if (problems.length > 0) throw invalidBody(`invalid body: ${problems.join('; ')}`);
      await repository.setProfile(companyId, next);
      return { company_id: companyId, ...next };
    },
    forForm: (companyId) => repository.profile(companyId),
  };
}
