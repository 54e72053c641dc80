import { Type } from '@sinclair/typebox';
import { COMPANY_ID_RULE, MAX_COMPANY_ID_LENGTH } from '../../domain/auth/company-id.js';

/**
 * A company ID in an operator path or body. The schema documents the rule and bounds the length;
 * the rule itself is checked by companyIdProblem (plugins/company-path.ts for paths), so that a
 * refusal names what is wrong.
 */
export const CompanyId = (description = 'company ID') =>
  Type.String({ minLength: 1, maxLength: MAX_COMPANY_ID_LENGTH, description: `${description}: ${COMPANY_ID_RULE}` });

/** Path parameters of /admin/v1/companies/{company}/... */
export const CompanyParams = Type.Object({ company: CompanyId() });
