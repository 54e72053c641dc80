import { parseArgs } from 'node:util';
import { dataSettings } from '../../config/data-location.js';
import { UsageError, type CliCommand } from '../command.js';
import { copySummary, createCopyProgress, silentProgress } from '../copy-progress.js';
import { requireOption } from '../operator.js';

const POSTGRES_URL = /^postgres(ql)?:\/\//;

export const copyDatabaseCommand: CliCommand = {
  name: 'copy-database',
  usage: 'wrs copy-database --to postgres://... [--from sqlite:FILE] [--quiet]',
  summary: 'copy a SQLite database (default: the configured one) into a new PostgreSQL database',
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: { from: { type: 'string' }, to: { type: 'string' }, quiet: { type: 'boolean', default: false } },
    });
    const sqliteFile = sourceFile(values.from);
    const to = requireOption(values.to, 'to');
    if (!POSTGRES_URL.test(to)) throw new UsageError(`--to must be a PostgreSQL URL (postgres://user:password@host:port/database), not ${to}`);

    const { copySqliteToPostgres, CopyRefusal, withoutPassword } = await import('../../app-context.js');
    const progress = values.quiet ? silentProgress : createCopyProgress();
    try {
      const summary = await copySqliteToPostgres(sqliteFile, to, progress);
      progress.finish();
      console.log(copySummary(summary, `sqlite:${sqliteFile}`, withoutPassword(to)));
      return 0;
    } catch (error) {
      progress.finish();
      if (error instanceof CopyRefusal) console.error(error.message);
      else console.error(`the copy failed and nothing was committed to the target: ${(error as Error).message}`);
      return 1;
    }
  },
};

/** `--from`, or the SQLite file the service is configured with (WRS_DATABASE_URL, WRS_DATA_DIR); relative paths from the working folder. */
function sourceFile(from: string | undefined): string {
  const url = from ?? dataSettings(process.env, process.cwd()).databaseUrl;
  if (!url.startsWith('sqlite:')) {
    throw new UsageError(
      from === undefined
        ? 'the configured database (WRS_DATABASE_URL) is not a SQLite file; name the source with --from sqlite:FILE'
        : `--from must name a SQLite file (sqlite:FILE), not ${from}`,
    );
  }
  const { sqliteFile } = dataSettings({ WRS_DATABASE_URL: url }, process.cwd()).data;
  if (sqliteFile === undefined) throw new UsageError('--from must name a SQLite file, not an in-memory database');
  return sqliteFile;
}
