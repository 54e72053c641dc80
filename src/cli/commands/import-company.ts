import { createReadStream } from 'node:fs';
import { parseArgs } from 'node:util';
import type { CliCommand } from '../command.js';
import { cliConfig } from '../config-from-env.js';
import { fileSize } from '../input-file.js';
import { plural, positionalsExactly, printResult, reportingFailures, withAppContext } from '../operator.js';
import { describeCounts } from './export-company.js';

export const importCompanyCommand: CliCommand = {
  name: 'import company',
  usage: 'wrs import company FILE [--json]',
  summary: 'load a company export (from `wrs export`) into this deployment, all or nothing; the company must have no data',
  async run(argv) {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { json: { type: 'boolean', default: false } } });
    const [file] = positionalsExactly(positionals, 1, 'name exactly one FILE (a company export)') as [string];
    const { config } = cliConfig('may-create');
    return reportingFailures(async () => {
      fileSize(file);
      await withAppContext(config, async (ctx) => {
        const started = performance.now();
        const report = await ctx.companyImporter.importFile(() => createReadStream(file));
        const items = Object.values(report.counts).reduce((sum, count) => sum + count, 0);
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        const lines = [
          `imported ${plural(items, 'item')} into company ${report.company} in ${seconds} s (${describeCounts(report.counts)})`,
          `  from a ${report.source.database} deployment (wrs ${report.source.service_version}), exported at ${report.source.exported_at}`,
        ];
        if (report.webhooks.length > 0) {
          lines.push('  webhooks have new signing secrets (an export never carries secrets); give each receiver its new one:');
          for (const webhook of report.webhooks) lines.push(`    ${webhook.id} ${webhook.url} ${webhook.secret}`);
        }
        printResult(values.json, report, lines.join('\n'));
      });
    }, file);
  },
};
