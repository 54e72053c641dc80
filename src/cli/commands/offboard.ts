import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { JOB_WAIT_POLL_MS } from '../../domain/lifecycle/job-lease.js';
import type { Offboarding } from '../../domain/lifecycle/offboarding.js';
import type { CliCommand } from '../command.js';
import { cliConfig } from '../config-from-env.js';
import { COMPANY_AND_JSON, plural, printResult, reportingFailures, requireCompany, withAppContext } from '../operator.js';

export const offboardCommand: CliCommand = {
  name: 'offboard',
  usage: 'wrs offboard --company C [--json]',
  summary: 'delete every row and file of a company, in batches, and print the rows removed per table',
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: COMPANY_AND_JSON });
    const companyId = requireCompany(values.company);
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      const report = await withAppContext(config, async (ctx) => {
        await ctx.offboardings.request(companyId, 'cli');
        let current = await ctx.offboardings.run(companyId);
        while (current.state === 'running') {
          await sleep(JOB_WAIT_POLL_MS);
          current = await ctx.offboardings.run(companyId);
        }
        return current;
      });
      printResult(values.json, report, describe(report));
    });
  },
};

function describe(report: Offboarding): string {
  const total = Object.values(report.removed).reduce((sum, rows) => sum + rows, 0);
  return [
    `company "${report.company_id}" offboarded: ${plural(total, 'row')} removed in ${plural(report.batches, 'batch', 'batches')}`,
    ...Object.entries(report.removed).map(([table, rows]) => `  ${table}\t${rows}`),
  ].join('\n');
}
