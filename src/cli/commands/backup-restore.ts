import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { dataSettings } from '../../config/data-location.js';
import type { CliCommand } from '../command.js';
import { positionalsExactly } from '../operator.js';

export const backupCommand: CliCommand = {
  name: 'backup',
  usage: 'wrs backup FILE',
  summary: 'write a verified copy of the SQLite database to FILE, while the service runs',
  async run(argv) {
    const [file] = positionalsExactly(parseArgs({ args: argv, allowPositionals: true, options: {} }).positionals, 1, 'name the backup FILE to write');
    const database = configuredSqliteFile('backup');
    if (database === undefined) return 1;
    const target = resolve(file!);
    const { backupSqlite, BackupRefusal } = await import('../../app-context.js');
    try {
      const summary = await backupSqlite(database, target);
      console.log(
        `backed up ${database} to ${target}: ${megabytes(summary.bytes)} in ${seconds(summary.copyMs + summary.verifyMs)} ` +
          `(copy ${seconds(summary.copyMs)}; verified in ${seconds(summary.verifyMs)}: integrity_check ok, a wrs database)`,
      );
      return 0;
    } catch (error) {
      if (!(error instanceof BackupRefusal)) throw error;
      console.error(`no backup written: ${error.message}`);
      return 1;
    }
  },
};

export const restoreCommand: CliCommand = {
  name: 'restore',
  usage: 'wrs restore FILE',
  summary: 'verify a backup FILE and put it in place of the SQLite database (service stopped)',
  async run(argv) {
    const [file] = positionalsExactly(parseArgs({ args: argv, allowPositionals: true, options: {} }).positionals, 1, 'name the backup FILE to restore');
    const database = configuredSqliteFile('restore');
    if (database === undefined) return 1;
    const backup = resolve(file!);
    const { restoreSqlite, BackupRefusal } = await import('../../app-context.js');
    try {
      const summary = await restoreSqlite(backup, database);
      const what = summary.replaced ? 'replacing the database that was there' : 'where there was no database';
      console.log(`restored ${backup} to ${database} (${megabytes(summary.bytes)}, integrity check ok) in ${seconds(summary.ms)}, ${what}`);
      return 0;
    } catch (error) {
      if (!(error instanceof BackupRefusal)) throw error;
      console.error(`nothing restored: ${error.message}`);
      return 1;
    }
  },
};

/** The SQLite file the service is configured with (WRS_DATABASE_URL, WRS_DATA_DIR); undefined, said why, for any other database. */
function configuredSqliteFile(command: 'backup' | 'restore'): string | undefined {
  const { databaseUrl, data } = dataSettings(process.env, process.cwd());
  if (data.sqliteFile !== undefined) return data.sqliteFile;
  if (databaseUrl.startsWith('sqlite:')) {
    console.error(`wrs ${command} works on a SQLite file; the configured database (WRS_DATABASE_URL) is in memory`);
  } else {
    console.error(
      `wrs ${command} is for a SQLite database; the configured database (WRS_DATABASE_URL) is PostgreSQL. ` +
        'Back it up with pg_basebackup and WAL archiving, and restore it to a point in time, as docs/backup.md shows step by step',
    );
  }
  return undefined;
}

const megabytes = (bytes: number): string => `${(bytes / 1_000_000).toFixed(1)} MB`;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
