import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileMigrationProvider, Migrator, type Kysely } from 'kysely';

const migrationFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Runs the numbered migrations in `storage/migrations` (NNNN_name.ts, each with up and down).
 * Kysely's migrator takes a lock, so replicas starting together apply each migration once.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against Kysely<any>, not against today's schema
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider() });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${reason}`, { cause: error });
  }
  return (results ?? []).map((result) => result.migrationName);
}

/** The names of the migrations this version of wrs has, in the order they run. */
export async function knownMigrationNames(): Promise<string[]> {
  return Object.keys(await migrationProvider().getMigrations()).sort();
}

function migrationProvider(): FileMigrationProvider {
  return new FileMigrationProvider({ fs, path, migrationFolder });
}
