import { closeSync, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { knownMigrationNames } from '../migrator.js';
import { SqliteDatabase } from '../sqlite-driver.js';
import { BackupRefusal } from './backup-refusal.js';

/**
 * Checks a database file before it is kept as a backup or put in place by a restore: SQLite's
 * `integrity_check` answers `ok` (every page, index and constraint sound), and it is a wrs
 * database this version can serve (written by this version or an older one, which the service
 * migrates on start). `name` is how the operator knows the file.
 */
export async function verifyDatabaseFile(path: string, name: string): Promise<void> {
  let db: SqliteDatabase;
  try {
    db = new SqliteDatabase(path, { fileMustExist: true });
  } catch (error) {
    throw new BackupRefusal(`${name} cannot be opened as a SQLite database: ${(error as Error).message}`);
  }
  try {
    let problems: string[];
    try {
      problems = (db.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check);
    } catch (error) {
      throw new BackupRefusal(`${name} cannot be read as a SQLite database: ${(error as Error).message}`);
    }
    if (problems.join() !== 'ok') {
      throw new BackupRefusal(`${name} fails SQLite's integrity check: ${problems.slice(0, 5).join('; ')}`);
    }
    const hasMigrations = db.prepare(`select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'`).get();
    if (!hasMigrations) throw new BackupRefusal(`${name} is not a wrs database (it has no migrations table)`);
    const known = await knownMigrationNames();
    const applied = (db.prepare('select name from kysely_migration').all() as { name: string }[]).map((row) => row.name);
    const unknown = applied.filter((migration) => !known.includes(migration));
    if (unknown.length > 0) throw new BackupRefusal(`${name} was written by a newer wrs (${unknown.join(', ')}); restore it with that version`);
  } finally {
    db.close();
  }
}

/** Flushes a file and the folder that names it, so that a rename that follows survives a power cut. */
export function syncFileAndFolder(path: string): void {
  for (const target of [path, dirname(path)]) {
    const fd = openSync(target, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}
