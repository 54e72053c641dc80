import { SqliteDatabase } from '../sqlite-driver.js';
import { BackupRefusal } from './backup-refusal.js';

export interface HeldDatabase {
  release(): void;
}

/**
 * Takes SQLite's exclusive lock on a database file that no process has open, and keeps it until
 * `release`; refuses when a process has it open.
 *
 * Why SQLite's own lock and not a pid file or a lease row: every wrs process that uses the file
 * (`wrs serve` and each of its workers, and every other command) keeps a connection open for as
 * long as it runs, and in WAL mode an open connection holds a shared lock on the database file
 * all that time, not only during its transactions. The operating system drops that lock when the
 * process ends, however it ends, so there is no stale lock after a crash, no pid to be reused, and
 * it works across containers sharing the volume, where pids mean nothing. The exclusive locking
 * mode with no busy wait asks for that lock once and fails at once if anyone holds a shared one.
 *
 * Holding it, the database is switched out of WAL mode, which checkpoints and deletes its log:
 * the caller may then replace the file with nothing of the old one left to be replayed onto the
 * new one. The lock stays held by this connection until the new file is in place.
 */
export function holdDatabaseUnused(path: string): HeldDatabase {
  let db: SqliteDatabase;
  try {
    db = new SqliteDatabase(path, { fileMustExist: true });
  } catch (error) {
    throw new BackupRefusal(`${path} cannot be opened to check that no process uses it: ${(error as Error).message}`);
  }
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('begin exclusive; commit');
    db.pragma('journal_mode = DELETE');
  } catch (error) {
    db.close();
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
      throw new BackupRefusal(`a process has ${path} open (a running wrs serve, or another wrs command); stop it, then restore`);
    }
    // A file SQLite cannot read as a database is no service's database: it may be replaced.
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') return { release: () => undefined };
    throw error;
  }
  return { release: () => db.close() };
}
