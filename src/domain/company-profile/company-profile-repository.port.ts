import type { FormCompany } from './company-profile.js';

/** What the company profile needs from storage; storage/repositories/company-profile-repository.ts implements it. */
export interface CompanyProfileRepository {
  /** The company's stored profile; both null when it set none. */
  profile(companyId: string): Promise<FormCompany>;
  /** Stores both values (null clears one), leaving the company's other settings as they are. */
  setProfile(companyId: string, profile: FormCompany): Promise<void>;
}
