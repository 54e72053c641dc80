import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SqliteDatabase } from '../sqlite-driver.js';
import { BackupRefusal } from './backup-refusal.js';
import { syncFileAndFolder, verifyDatabaseFile } from './verified-copy.js';

export interface BackupSummary {
  readonly bytes: number;
  /** Writing the copy (VACUUM INTO). */
  readonly copyMs: number;
  /** The integrity check of the copy. */
  readonly verifyMs: number;
}

/**
 * Writes a consistent copy of the SQLite database at `source` to `target`, while a service may
 * be serving and writing it. The copy is `VACUUM INTO`, one read transaction: under WAL it sees
 * the database as committed when it began, writers go on meanwhile, and it never restarts. (The
 * online backup API copies pages in steps and starts again whenever another process writes
 * between two steps, so under steady ingest a large database might never finish; copying it in
 * one step holds a read lock just as long as VACUUM INTO does, without compacting.) The copy is
 * written beside `target`, checked, flushed, then renamed: `target` is whole or absent.
 */
export async function backupSqlite(source: string, target: string): Promise<BackupSummary> {
  if (!existsSync(source) || !statSync(source).isFile()) throw new BackupRefusal(`no SQLite database at ${source}`);
  if (existsSync(target)) throw new BackupRefusal(`${target} already exists; name a new file (a backup never overwrites one)`);
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.partial-${process.pid}`;
  try {
    const started = performance.now();
    copyInto(source, partial);
    const copied = performance.now();
    await verifyDatabaseFile(partial, `the copy of ${source}`);
    const verified = performance.now();
    syncFileAndFolder(partial);
    renameSync(partial, target);
    syncFileAndFolder(target);
    return { bytes: statSync(target).size, copyMs: copied - started, verifyMs: verified - copied };
  } finally {
    for (const leftover of [partial, `${partial}-wal`, `${partial}-shm`, `${partial}-journal`]) rmSync(leftover, { force: true });
  }
}

function copyInto(source: string, partial: string): void {
  let db: SqliteDatabase;
  try {
    db = new SqliteDatabase(source, { fileMustExist: true });
  } catch (error) {
    throw new BackupRefusal(`${source} cannot be opened as a SQLite database: ${(error as Error).message}`);
  }
  try {
    // A writer checkpointing or recovering holds its lock only for moments.
    db.pragma('busy_timeout = 5000');
    db.prepare('vacuum into ?').run(partial);
  } catch (error) {
    throw new BackupRefusal(`${source} could not be copied: ${(error as Error).message}`);
  } finally {
    db.close();
  }
}
