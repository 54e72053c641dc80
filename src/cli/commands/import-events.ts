import { createReadStream } from 'node:fs';
import { parseArgs } from 'node:util';
import type { CliCommand } from '../command.js';
import { cliConfig } from '../config-from-env.js';
import { detectFormat, fileSize } from '../input-file.js';
import { positionalsExactly, reportingFailures, requireCompany, withAppContext } from '../operator.js';
import { createProgressBar, importSummary } from '../progress.js';

export const importEventsCommand: CliCommand = {
  name: 'import events',
  usage: 'wrs import events FILE --company C',
  summary: 'ingest events from an NDJSON or JSON-array file, in one transaction (straight to the database)',
  async run(argv) {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { company: { type: 'string' } } });
    const [file] = positionalsExactly(positionals, 1, 'name exactly one FILE (NDJSON, or a JSON array)') as [string];
    const companyId = requireCompany(values.company);
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      const size = fileSize(file);
      const format = detectFormat(file);
      await withAppContext(config, async (ctx) => {
        const progress = createProgressBar(size, 'events');
        let bytes = 0;
        let ingested = 0;
        async function* counted(): AsyncGenerator<Buffer> {
          for await (const chunk of createReadStream(file)) {
            bytes += (chunk as Buffer).length;
            progress.update(bytes, ingested);
            yield chunk as Buffer;
          }
        }
        const started = performance.now();
        try {
          const { ingested: count } = await ctx.events.ingest(companyId, counted(), {
            format,
            onProgress: (sofar) => {
              ingested = sofar;
              progress.update(bytes, ingested);
            },
          });
          progress.finish();
          console.log(importSummary(count, 'events', companyId, started));
        } catch (error) {
          progress.finish();
          throw error;
        }
      });
    }, file);
  },
};
