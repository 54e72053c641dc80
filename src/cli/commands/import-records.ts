import { parseArgs } from 'node:util';
import { NdjsonBody } from '../../contracts/ndjson.js';
import { IMPORT_BODY_LIMIT_BYTES, importEntries } from '../../contracts/records-import.js';
import { unstorableTextError } from '../../contracts/storable-text.js';
import type { ImportEntry } from '../../domain/records/import.js';
import { invalidBody } from '../../errors/app-error.js';
import type { CliCommand } from '../command.js';
import { cliConfig } from '../config-from-env.js';
import { detectFormat, fileSize, parseJsonDocument, readTextFile } from '../input-file.js';
import { COMPANY_AND_JSON, positionalsExactly, printResult, reportingFailures, requireCompany, withAppContext } from '../operator.js';
import { createProgressBar, importSummary } from '../progress.js';

/**
 * The entries of an import file, read as POST /admin/v1/companies/{company}/records reads its
 * body, so that the refusal lists the same problems.
 */
async function readImportEntries(text: string, file: string): Promise<ImportEntry[]> {
  const body = detectFormat(file) === 'ndjson' ? await NdjsonBody.read([text]) : parseJsonDocument(text, file);
  const unstorable = unstorableTextError(body);
  if (unstorable) throw unstorable;
  const entries = importEntries(body);
  if (!entries) throw invalidBody('send a JSON array of records, or NDJSON with one record per line');
  return entries;
}

export const importRecordsCommand: CliCommand = {
  name: 'import records',
  usage: 'wrs import records FILE --company C [--json]',
  summary: 'import records of any kind from an NDJSON or JSON-array file, all or nothing',
  async run(argv) {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: COMPANY_AND_JSON });
    const [file] = positionalsExactly(positionals, 1, 'name exactly one FILE (NDJSON, or a JSON array)') as [string];
    const companyId = requireCompany(values.company);
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      const size = fileSize(file);
      const started = performance.now();
      const text = await readTextFile(file, { limitBytes: IMPORT_BODY_LIMIT_BYTES, limitName: 'the limit of a records import' });
      const entries = await readImportEntries(text, file);
      await withAppContext(config, async (ctx) => {
        // The bar shows the share of the file's records stored; it stays at 0 while they are checked.
        const storing = createProgressBar(size, 'records');
        storing.update(0, 0);
        try {
          const imported = await ctx.records.import(companyId, entries, {
            onProgress: (stored) => storing.update(Math.round((size * stored) / Math.max(entries.length, 1)), stored),
          });
          storing.finish();
          printResult(values.json, { imported }, importSummary(imported, 'records', companyId, started));
        } catch (error) {
          storing.finish();
          throw error;
        }
      });
    }, file);
  },
};
