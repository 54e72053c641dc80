import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import type { CliCommand } from '../command.js';
import { cliConfig } from '../config-from-env.js';
import { plural, positionalsExactly, reportingFailures, requireCompany, withAppContext } from '../operator.js';

export const exportCompanyCommand: CliCommand = {
  name: 'export',
  usage: 'wrs export --company C [--out FILE]',
  summary: "write a company's whole data as one NDJSON export (stdout by default), for `wrs import company`",
  async run(argv) {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { company: { type: 'string' }, out: { type: 'string' } } });
    positionalsExactly(positionals, 0, 'wrs export takes no FILE argument: name it with --out FILE');
    const companyId = requireCompany(values.company);
    const out = values.out;
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      await withAppContext(config, async (ctx) => {
        const started = performance.now();
        let last = '';
        async function* remembered(): AsyncGenerator<string> {
          for await (const text of ctx.companyExporter.lines(companyId)) {
            last = text;
            yield text;
          }
        }
        // Into a file beside the target, renamed once complete: a failed export leaves no partial file under the name.
        const partial = out && `${out}.partial`;
        try {
          await pipeline(Readable.from(remembered()), partial ? createWriteStream(partial) : process.stdout, { end: partial !== undefined });
          if (partial) renameSync(partial, out);
        } catch (error) {
          if (partial) rmSync(partial, { force: true });
          throw error;
        }
        const { counts } = JSON.parse(last) as { counts: Record<string, number> };
        const items = Object.values(counts).reduce((sum, count) => sum + count, 0);
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        console.error(`exported ${plural(items, 'item')} of company ${companyId}${out ? ` to ${out}` : ''} in ${seconds} s (${describeCounts(counts)})`);
      });
    });
  },
};

export function describeCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([kind, count]) => `${kind} ${count.toLocaleString('en-US')}`)
    .join(', ');
}
