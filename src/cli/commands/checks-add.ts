import { parseArgs } from 'node:util';
import type { CliCommand } from '../command.js';
import { cliConfig } from '../config-from-env.js';
import { readJsonFile } from '../input-file.js';
import { COMPANY_AND_JSON, plural, positionalsExactly, printResult, reportingFailures, requireCompany, withAppContext } from '../operator.js';

export const checksAddCommand: CliCommand = {
  name: 'checks add',
  usage: 'wrs checks add --company C FILE [--json]',
  summary: "add Lob-shaped checks (a JSON array) to a company's embedded provider, all or none",
  async run(argv) {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: COMPANY_AND_JSON });
    const [file] = positionalsExactly(positionals, 1, 'name exactly one FILE holding a JSON array of checks') as [string];
    const companyId = requireCompany(values.company);
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      const body = await readJsonFile(file, { limitBytes: config.bodyLimitBytes, limitName: 'WRS_BODY_LIMIT_BYTES' });
      // The service checks the checks as the POST route has it do: every problem listed at once.
      const added = await withAppContext(config, (ctx) => ctx.checks.add(companyId, body));
      printResult(values.json, { added }, `added ${plural(added, 'check')} to company "${companyId}" (embedded provider)`);
    });
  },
};
