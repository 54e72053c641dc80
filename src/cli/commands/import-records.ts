import { createReadStream } from 'node:fs';
import { parseArgs } from 'node:util';
import type { CliCommand } from '../command.js';
import { cliConfig } from '../config-from-env.js';
import { detectFormat, fileSize, InputFileError } from '../input-file.js';
import { COMPANY_AND_JSON, positionalsExactly, printResult, reportingFailures, requireCompany, withAppContext } from '../operator.js';
import { createProgressBar, importSummary } from '../progress.js';

export const importRecordsCommand: CliCommand = {
  name: 'import records',
  usage: 'wrs import records FILE --company C [--json]',
  summary: 'import records of any kind from an NDJSON or JSON-array file, streamed, in one transaction, all or nothing',
  async run(argv) {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: COMPANY_AND_JSON });
    const [file] = positionalsExactly(positionals, 1, 'name exactly one FILE (NDJSON, or a JSON array)') as [string];
    const companyId = requireCompany(values.company);
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      const size = fileSize(file);
      const format = detectFormat(file);
      const started = performance.now();
      await withAppContext(config, async (ctx) => {
        // The file is read as POST /admin/v1/companies/{company}/records reads its body, so that
        // a refusal lists the same problems; the bar follows the bytes read.
        const progress = createProgressBar(size, 'records');
        let bytes = 0;
        let stored = 0;
        async function* counted(): AsyncGenerator<Buffer> {
          try {
            for await (const chunk of createReadStream(file)) {
              bytes += (chunk as Buffer).length;
              progress.update(bytes, stored);
              yield chunk as Buffer;
            }
          } catch (error) {
            throw new InputFileError(`cannot read ${file}: ${(error as Error).message}`);
          }
        }
        try {
          const imported = await ctx.records.import(companyId, counted(), {
            format,
            onProgress: (sofar) => {
              stored = sofar;
              progress.update(bytes, stored);
            },
          });
          progress.finish();
          printResult(values.json, { imported }, importSummary(imported, 'records', companyId, started));
        } catch (error) {
          progress.finish();
          throw error;
        }
      });
    }, file);
  },
};
