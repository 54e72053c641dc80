import type { FastifyInstance } from 'fastify';
import { COMPANY_ID_RULE, companyIdProblem } from '../../domain/auth/company-id.js';
import { invalidPath } from '../../errors/app-error.js';

/**
 * The operator paths /companies/{company}/... name a company: one that breaks the company-ID
 * rule is a 400 saying why, before any body is read. (Other path parameters that fail their
 * schema name nothing and stay 404.)
 */
export function registerCompanyPathRule(scope: FastifyInstance): void {
  scope.addHook('onRequest', async (request) => {
    const company = (request.params as { company?: unknown } | undefined)?.company;
    if (company === undefined) return;
    const problem = companyIdProblem(company);
    if (problem) {
      throw invalidPath(`the company in the path ${problem} (${COMPANY_ID_RULE})`);
    }
  });
}
