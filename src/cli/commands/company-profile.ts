import { parseArgs } from 'node:util';
import type { CompanyProfile } from '../../domain/company-profile/company-profile.js';
import type { ProfileChanges } from '../../domain/company-profile/company-profile-service.js';
import { UsageError, type CliCommand } from '../command.js';
import { cliConfig } from '../config-from-env.js';
import { COMPANY_AND_JSON, printResult, reportingFailures, requireCompany, withAppContext } from '../operator.js';

const describe = (profile: CompanyProfile): string =>
  [
    `company "${profile.company_id}"`,
    `  display name:  ${profile.display_name ?? '(not set: the hosted form names no company)'}`,
    `  support email: ${profile.support_email ?? '(not set)'}`,
  ].join('\n');

/** An option's value as a change: absent leaves it, an empty string clears it. */
const change = (value: string | undefined): string | null | undefined => (value === undefined ? undefined : value.trim() === '' ? null : value);

export const profileShowCommand: CliCommand = {
  name: 'profile show',
  usage: 'wrs profile show --company C [--json]',
  summary: "show a company's display name and support email (what the hosted form shows)",
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: COMPANY_AND_JSON });
    const companyId = requireCompany(values.company);
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      const profile = await withAppContext(config, (ctx) => ctx.companyProfiles.get(companyId));
      printResult(values.json, profile, describe(profile));
    });
  },
};

export const profileSetCommand: CliCommand = {
  name: 'profile set',
  usage: 'wrs profile set --company C [--display-name N] [--support-email E] [--json]',
  summary: 'set a company\'s display name and support email for the hosted form ("" clears one)',
  async run(argv) {
    const options = { ...COMPANY_AND_JSON, 'display-name': { type: 'string' }, 'support-email': { type: 'string' } } as const;
    const { values } = parseArgs({ args: argv, options });
    const companyId = requireCompany(values.company);
    const changes: ProfileChanges = { display_name: change(values['display-name']), support_email: change(values['support-email']) };
    if (changes.display_name === undefined && changes.support_email === undefined) {
      throw new UsageError('give --display-name, --support-email or both (an empty value clears one)');
    }
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      const profile = await withAppContext(config, (ctx) => ctx.companyProfiles.update(companyId, changes));
      printResult(values.json, profile, describe(profile));
    }, `company "${companyId}"`);
  },
};
