import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BackupRefusal } from './backup-refusal.js';
import { holdDatabaseUnused, type HeldDatabase } from './unused-database.js';
import { syncFileAndFolder, verifyDatabaseFile } from './verified-copy.js';

export interface RestoreSummary {
  readonly bytes: number;
  readonly ms: number;
  /** Whether a database was there before and is now replaced. */
  readonly replaced: boolean;
}

/**
 * Puts the backup `backup` in place of the SQLite database `target`. The backup is copied beside
 * the target and checked there (what is checked is what goes in place), and nothing changes until
 * then. The target is replaced only while no process has it open (unused-database.ts), with its
 * write-ahead log emptied and removed first: a log left beside the new file would be replayed
 * onto it. Then one rename: at any moment the target is the old database or the new one.
 */
export async function restoreSqlite(backup: string, target: string): Promise<RestoreSummary> {
  const started = performance.now();
  if (!existsSync(backup) || !statSync(backup).isFile()) throw new BackupRefusal(`no backup file at ${backup}`);
  if (hasLog(backup)) {
    throw new BackupRefusal(
      `${backup} has a write-ahead log beside it (${backup}-wal): it is a database in use or not closed cleanly, not a backup; take one with wrs backup`,
    );
  }
  mkdirSync(dirname(target), { recursive: true });
  const incoming = `${target}.restoring-${process.pid}`;
  let held: HeldDatabase | undefined;
  try {
    copyFileSync(backup, incoming);
    await verifyDatabaseFile(incoming, backup);
    syncFileAndFolder(incoming);
    const replaced = existsSync(target);
    if (replaced) held = holdDatabaseUnused(target);
    for (const stale of [`${target}-wal`, `${target}-shm`, `${target}-journal`]) rmSync(stale, { force: true });
    renameSync(incoming, target);
    syncFileAndFolder(target);
    return { bytes: statSync(target).size, ms: performance.now() - started, replaced };
  } finally {
    held?.release();
    for (const leftover of [incoming, `${incoming}-wal`, `${incoming}-shm`, `${incoming}-journal`]) rmSync(leftover, { force: true });
  }
}

function hasLog(path: string): boolean {
  return existsSync(`${path}-wal`) && statSync(`${path}-wal`).size > 0;
}
